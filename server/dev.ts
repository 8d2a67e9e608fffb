/**
 * `npm run dev`: the same Express app as production, with Vite's dev middleware and hot reload.
 */
import { createServer as createViteServer } from "vite";
import type { ServerBuild } from "react-router";
import { env } from "~/lib/env.server";
import { configureLogger } from "~/lib/logger.server";
import { buildImages } from "../scripts/build/images.mjs";
import { createApp } from "./app";
import { prepareDatabase, startBackgroundWork } from "./start-up";

process.env.NODE_ENV ??= "development";
const config = env();
configureLogger();
await prepareDatabase(config);

// The public pages' pictures (ADR 028), as the build writes them; redone only when changed.
await buildImages();
const vite = await createViteServer({ server: { middlewareMode: true }, appType: "custom" });
const app = createApp({
  dev: true,
  devMiddleware: vite.middlewares,
  build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
});
app.listen(config.port, () => console.log(`Development server: ${config.publicUrl}`));
startBackgroundWork();
