/**
 * A newcomer's first start, in a process of its own (ADR 092): the server (server/start-up.ts)
 * runs this, compiled to build/server/first-start.js, on an empty embedded data directory, and
 * opens the database once it exits. It creates the database from the build's template, applies
 * the migrations, writes the demo data and prints the logins; what that grew in memory ends with
 * this process.
 */
import { openDatabase, setDatabase } from "~/db/client.server";
import { env } from "~/lib/env.server";
import { configureLogger } from "~/lib/logger.server";
import { databaseTemplateDir, seedDemoIfEmpty } from "./first-data";

process.env.NODE_ENV ??= "production";
const config = env();
configureLogger();
const handle = await openDatabase({ dataDir: config.dataDir, template: databaseTemplateDir() });
setDatabase(handle);
try {
  await handle.migrate();
  await seedDemoIfEmpty(config, handle);
} finally {
  await handle.close();
}
process.exit(0);
