// `npm start`: build when there is no build of these sources (a fresh clone), then run the
// compiled server (build/server/main.js). Settings are read by the server as it starts; they
// never cause a build (ADR 029).
// The server runs in this process, and package.json starts it with `exec`: the process npm
// forwards SIGTERM and SIGINT to is the server itself, which drains and exits (releasing
// DATA_DIR's lock), and npm waits for it. Without `exec` the shell in between died of the
// signal and left the server running, re-parented.
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
ensureBuild(root);

process.env.NODE_ENV ??= "production";
await import("../build/server/main.js");
