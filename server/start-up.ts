import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { openDatabase, setDatabase, type DatabaseHandle } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { startHousekeeping } from "~/lib/housekeeping.server";
import { logger } from "~/lib/logger.server";
import { startOutboxWorker } from "~/lib/outbox.server";
import { cancelOwnMembership } from "~/workflows/cancel-membership.server";
import { planSchedule, registerPaymentJobs } from "~/features/payments/index.server";
import { startHomeMonthNotices } from "~/features/home/index.server";
import { databaseTemplateDir, seedDemoIfEmpty } from "./first-data";

/** Whether the embedded database of `dataDir` has never been created (a newcomer's first start). */
function isNewDataDirectory(dataDir: string) {
  const pgDir = path.join(dataDir, "pglite");
  return !fs.existsSync(pgDir) || fs.readdirSync(pgDir).length === 0;
}

/**
 * A newcomer's first start, in a process of its own (`firstStartEntry`, the build's
 * build/server/first-start.js): it creates the embedded database (from the build's template),
 * migrates it and writes the demo data, then exits, and the server opens the database as a
 * restart would. The memory that creating and seeding grows (PGlite's WebAssembly heap, V8's
 * heap, glibc's arenas) goes with that process, so the first start rests as light as the next
 * (issue 45, ADR 092). Resolves whether it ran and succeeded; a failure is logged and the
 * server does the work itself.
 */
async function firstStartInChild(firstStartEntry: string) {
  const child = spawn(process.execPath, [firstStartEntry], { stdio: "inherit", env: process.env });
  const code = await new Promise<number | null>((resolve) => {
    child.once("error", () => resolve(null));
    child.once("exit", (exitCode) => resolve(exitCode));
  });
  if (code !== 0) logger.warn({ code }, "the first start's process failed; preparing here");
  return code === 0;
}

/**
 * What a server does with its database before it answers, in production (`server/main.ts`) and
 * in development (`server/dev.ts`) alike: open the database the configuration names (an empty
 * embedded one from the build's template, ADR 092), make it the process's database, apply the
 * migrations, and, when it has no accounts yet, create the demo data and print the logins.
 * `firstStartEntry`: a newcomer's first start on the embedded database runs in that process of
 * its own first (firstStartInChild).
 */
export async function prepareDatabase(
  config: Env,
  options: { firstStartEntry?: string } = {},
): Promise<DatabaseHandle> {
  const open = () =>
    openDatabase(
      config.databaseUrl
        ? { databaseUrl: config.databaseUrl }
        : { dataDir: config.dataDir, template: databaseTemplateDir() },
    );
  if (
    options.firstStartEntry &&
    !config.databaseUrl &&
    isNewDataDirectory(config.dataDir) &&
    fs.existsSync(options.firstStartEntry)
  ) {
    await firstStartInChild(options.firstStartEntry);
  }
  let handle = await open();
  setDatabase(handle);
  await handle.migrate();
  logger.info({ database: handle.kind }, "database ready, migrations applied");

  if (await seedDemoIfEmpty(config, handle)) {
    // The embedded database grows its memory (a WebAssembly heap, which never shrinks) while
    // the demo is written, and would hold it for the life of the process: that instance (its
    // own worker thread) is closed and a fresh one opened to serve (issue 45).
    if (handle.kind === "pglite") {
      await handle.close();
      handle = await open();
      setDatabase(handle);
    }
  }
  return handle;
}

/**
 * The work a server does besides answering, in production and development alike: the outbox
 * worker (e-mail and webhook delivery) and housekeeping (a pass shortly after start, then
 * hourly). `stop` ends both, waiting for a delivery or pass under way.
 */
export function startBackgroundWork(
  options: { housekeeping?: Parameters<typeof startHousekeeping>[0] } = {},
): { stop(): Promise<void> } {
  // The payments jobs (Stripe's events, refunds, the schedule) run on the outbox worker.
  registerPaymentJobs({ endMembership: cancelOwnMembership });
  const worker = startOutboxWorker();
  planSchedule().catch((error: Error) =>
    logger.error({ err: error.message }, "the payments schedule could not be planned"),
  );
  const housekeeping = startHousekeeping(options.housekeeping);
  // 'Your home this month' (ADR 087): tried hourly, sent on the month's first business day.
  const monthNotices = startHomeMonthNotices();
  return {
    async stop() {
      monthNotices.stop();
      await Promise.all([worker.stop(), housekeeping.stop()]);
    },
  };
}
