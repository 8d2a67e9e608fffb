import { isDatabaseEmpty, type DatabaseHandle } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { demoLoginLines, seedDemo, type DemoInputs } from "./seed/demo";

/*
 * What a new database is given before it serves, shared by the server (start-up.ts) and the
 * first start's own process (first-start.ts), which loads nothing else.
 */

/**
 * The demo data, when the database has no accounts yet and the configuration wants it (by
 * default only on the embedded database; SEED_DEMO decides); prints the logins. Returns whether
 * it seeded.
 */
export async function seedDemoIfEmpty(config: Env, handle: DatabaseHandle, inputs?: DemoInputs) {
  const shouldSeed = config.seedDemo ?? !config.databaseUrl;
  if (!shouldSeed || !(await isDatabaseEmpty(handle.db))) return false;
  await seedDemo(handle.db, undefined, inputs);
  console.log(
    ["", "Demo data created. Sign in at /auth with:", ...demoLoginLines(), ""].join("\n"),
  );
  return true;
}
