/**
 * A newcomer's demo data, written by a process of its own (ADR 092, ADR 101). The server's entry
 * starts this (compiled to build/server/first-start.js) through first-start-gate.ts as soon as it
 * sees an empty embedded data directory, so its modules load while the server's do. The server
 * opens the database (from the build's template) and migrates it, then sends this process the
 * address of its embedded database's socket; this writes the demo data over that socket, prints
 * the logins and exits. What writing the demo grows in memory (its modules, the password hashes,
 * the label photo's fonts and images) ends with this process; the server goes on with the
 * database it opened.
 */
import { openDatabase } from "~/db/client.server";
import { env } from "~/lib/env.server";
import { configureLogger } from "~/lib/logger.server";
import { seedDemoIfEmpty } from "./first-data";
import { demoInputs } from "./seed/demo";

/** What the server sends once its database is open and migrated. */
export type FirstStartMessage = { databaseUrl: string };

process.env.NODE_ENV ??= "production";
const config = env();
configureLogger();
// The password hashes and the label photo are made while the server opens the database.
const inputs = demoInputs();
const message = await new Promise<FirstStartMessage | undefined>((resolve) => {
  // The server ended, or decided there is nothing to write, without sending an address (before
  // this process had loaded, or since); or this process was not started by a server.
  if (!process.connected) return resolve(undefined);
  process.once("disconnect", () => resolve(undefined));
  process.once("message", (received: FirstStartMessage) => resolve(received));
});
if (message) {
  const handle = await openDatabase({ databaseUrl: message.databaseUrl, poolSize: 2 });
  try {
    // The embedded database's demo: seedDemoIfEmpty decides by the server's own settings.
    await seedDemoIfEmpty(config, handle, inputs);
  } finally {
    await handle.close();
  }
}
process.exit(0);
