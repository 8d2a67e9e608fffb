/**
 * `npm run dev`: the same Express app as production, with Vite's dev middleware and hot reload.
 */
import { createServer as createViteServer } from "vite";
import type { ServerBuild } from "react-router";
import { isDatabaseEmpty, openDatabase, setDatabase } from "~/db/client.server";
import { env } from "~/lib/env.server";
import { configureLogger } from "~/lib/logger.server";
import { startOutboxWorker } from "~/lib/outbox.server";
import { DEMO_LOGINS, seedDemo } from "../scripts/seed";
import { createApp } from "./app";

process.env.NODE_ENV ??= "development";
const config = env();
configureLogger();
const handle = await openDatabase(
  config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
);
setDatabase(handle);
await handle.migrate();
if ((config.seedDemo ?? !config.databaseUrl) && (await isDatabaseEmpty(handle.db))) {
  await seedDemo(handle.db);
  for (const login of DEMO_LOGINS)
    console.log(`  ${login.role.padEnd(9)} ${login.email}  ${login.password}`);
}

const vite = await createViteServer({ server: { middlewareMode: true }, appType: "custom" });
const app = createApp({
  dev: true,
  devMiddleware: vite.middlewares,
  build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
});
app.listen(config.port, () => console.log(`Development server: ${config.publicUrl}`));
startOutboxWorker();
