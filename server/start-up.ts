import { openDatabase, setDatabase, type DatabaseHandle } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { startHousekeeping } from "~/lib/housekeeping.server";
import { logger } from "~/lib/logger.server";
import { startOutboxWorker } from "~/lib/outbox.server";
import { cancelOwnMembership } from "~/workflows/cancel-membership.server";
import { planSchedule, registerPaymentJobs } from "~/features/payments/index.server";
import { startHomeMonthNotices } from "~/features/home/index.server";
import { databaseTemplateDir } from "~/db/template.server";
import { seedDemoIfEmpty } from "./first-data";
import type { FirstStart } from "./first-start-gate";

/**
 * What a server does with its database, in production (`server/main.ts`) and in development
 * (`server/dev.ts`) alike: open the database the configuration names (an empty embedded one from
 * the build's template, ADR 092), make it the process's database, apply the migrations, and, when
 * it has no accounts yet, create the demo data and print the logins (`fillDatabase`).
 * `firstStart`: a newcomer's first start (first-start-gate.ts, ADR 101), whose process writes the
 * demo data through the embedded database's socket once it is open and migrated; if it fails,
 * the work is done here.
 */
export async function prepareDatabase(
  config: Env,
  options: { firstStart?: FirstStart } = {},
): Promise<DatabaseHandle> {
  return fillDatabase(config, await openReadyDatabase(config), options);
}

function openConfigured(config: Env) {
  return openDatabase(
    config.databaseUrl
      ? { databaseUrl: config.databaseUrl }
      : { dataDir: config.dataDir, template: databaseTemplateDir() },
  );
}

/**
 * The first half of `prepareDatabase`: the database opened, made the process's, and migrated.
 * The production server listens from here on (ADR 108): what needs no database is answered
 * while `fillDatabase` writes a newcomer's demo, and the rest waits for it.
 */
export async function openReadyDatabase(config: Env): Promise<DatabaseHandle> {
  const handle = await openConfigured(config);
  setDatabase(handle);
  // A directory just filled from the build's template holds the migrations' result exactly
  // (its fingerprint is theirs): there is nothing to apply, and checking took 0.12 s of a
  // newcomer's first start (ADR 105).
  if (!handle.fromTemplate) await handle.migrate();
  logger.info({ database: handle.kind }, "database ready, migrations applied");
  return handle;
}

/**
 * The second half of `prepareDatabase`: the demo data when the database has no accounts yet,
 * written by a newcomer's first-start process or else here. Returns the handle the server goes
 * on with (a new one when the embedded database was reopened after writing the demo).
 */
export async function fillDatabase(
  config: Env,
  opened: DatabaseHandle,
  options: { firstStart?: FirstStart; stopping?: () => boolean } = {},
): Promise<DatabaseHandle> {
  let handle = opened;
  if (options.firstStart) {
    const written = handle.socketUrl
      ? await options.firstStart.seed(handle.socketUrl)
      : await options.firstStart.abandon().then(() => false);
    // A signal to the whole process group (Ctrl-C) ends that process too: a server on its way
    // out leaves the demo to the next start, which writes it (the database has no accounts).
    if (!written && options.stopping?.()) return handle;
    if (!written) logger.warn("the first start's process failed; writing the demo here");
  }

  if (await seedDemoIfEmpty(config, handle)) {
    // The embedded database grows its memory (a WebAssembly heap, which never shrinks) while
    // the demo is written, and would hold it for the life of the process: that instance (its
    // own worker thread) is closed and a fresh one opened to serve (issue 45).
    if (handle.kind === "pglite") {
      await handle.close();
      handle = await openConfigured(config);
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
