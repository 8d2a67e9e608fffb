// The floor's server: Express 5 and @react-router/express, as the product's server/app.ts uses
// them, with nothing of the product's own middleware. PORT and HOST from the environment.
import path from "node:path";
import { pathToFileURL } from "node:url";
import express from "express";
import { createRequestHandler } from "@react-router/express";

const dir = import.meta.dirname;
const build = await import(pathToFileURL(path.join(dir, "build/server/index.js")).href);
const app = express();
app.disable("x-powered-by");
app.use(
  "/assets",
  express.static(path.join(dir, "build/client/assets"), { immutable: true, maxAge: "1y" }),
);
app.all("/{*splat}", createRequestHandler({ build, mode: "production" }));
const server = app.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1", () => {
  console.log(`Floor ready on port ${server.address().port}`);
});
server.keepAliveTimeout = 65_000;
process.on("SIGTERM", () => server.close(() => process.exit(0)));
