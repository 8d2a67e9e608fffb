import {
  isDatabaseEmpty,
  openDatabase,
  setDatabase,
  type DatabaseHandle,
} from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { startHousekeeping } from "~/lib/housekeeping.server";
import { logger } from "~/lib/logger.server";
import { startOutboxWorker } from "~/lib/outbox.server";
import { cancelOwnMembership } from "~/workflows/cancel-membership.server";
import { planSchedule, registerPaymentJobs } from "~/features/payments/index.server";
import { startHomeMonthNotices } from "~/features/home/index.server";
import { demoLoginLines, seedDemo } from "./seed/demo";

/**
 * What a server does with its database before it answers, in production (`server/main.ts`) and
 * in development (`server/dev.ts`) alike: open the database the configuration names, make it
 * the process's database, apply the migrations, and, when it has no accounts yet, create the
 * demo data (by default only on the embedded database; SEED_DEMO decides) and print the logins.
 */
export async function prepareDatabase(config: Env): Promise<DatabaseHandle> {
  const open = () =>
    openDatabase(
      config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
    );
  let handle = await open();
  setDatabase(handle);
  await handle.migrate();
  logger.info({ database: handle.kind }, "database ready, migrations applied");

  const shouldSeed = config.seedDemo ?? !config.databaseUrl;
  if (shouldSeed && (await isDatabaseEmpty(handle.db))) {
    await seedDemo(handle.db);
    console.log(
      ["", "Demo data created. Sign in at /auth with:", ...demoLoginLines(), ""].join("\n"),
    );
    // The embedded database grows its memory (a WebAssembly heap, which never shrinks) while
    // the migrations and the demo are written, and would hold it for the life of the process:
    // that instance (its own worker thread) is closed and a fresh one opened to serve, so the
    // first start rests as light as the next (issue 45).
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
