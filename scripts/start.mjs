// `npm start`: build when there is no build of these sources (a fresh clone), then run the
// compiled server (build/server/main.js). Settings are read by the server as it starts; they
// never cause a build (ADR 029).
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
ensureBuild(root);

process.env.NODE_ENV ??= "production";
await import("../build/server/main.js");
