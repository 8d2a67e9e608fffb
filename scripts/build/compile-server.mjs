// The production server and the admin CLI, compiled to JavaScript (ADR 029): server/main.ts
// becomes build/server/main.js (beside React Router's server build, build/server/index.js) and
// scripts/cli.ts becomes build/cli.js. Each is one ES module with the app's own code in it; the
// packages in node_modules stay imports, resolved from node_modules at run time. Nothing is
// minified, so a stack trace reads like the source.
import fs from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "../..");

export const SERVER_ENTRY = path.join(root, "build/server/main.js");
export const CLI_ENTRY = path.join(root, "build/cli.js");

const SERVER_ENTRY_TEXT = `// The production server's entry (scripts/build/compile-server.mjs).
process.env.NODE_ENV ??= "production";
const { beginFirstStart, openDatabaseEarly } = await import("./first-start-gate.js");
const firstStart = beginFirstStart();
openDatabaseEarly();
const { main } = await import("./start.js");
main({ firstStart }).catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

export async function compileServer() {
  const started = Date.now();
  await build({
    absWorkingDir: root,
    entryPoints: [
      { in: "server/main.ts", out: "server/start" },
      // A newcomer's first start, run by the server in a process of its own (ADR 092), and
      // the small module that starts it before the server's packages load (ADR 101).
      { in: "server/first-start.ts", out: "server/first-start" },
      { in: "server/first-start-gate.ts", out: "server/first-start-gate" },
      { in: "scripts/cli.ts", out: "cli" },
    ],
    outdir: "build",
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20.19",
    tsconfig: "tsconfig.json",
    logLevel: "warning",
  });
  // React and React DOM pick their development or production build from NODE_ENV when first
  // imported, and a bundle's package imports are evaluated before any of its own code: the
  // entry sets NODE_ENV first, then imports the server. Without it, `node build/server/main.js`
  // with no NODE_ENV mixed React's development build with React DOM's production one.
  // The embedded database's worker (app/db/pglite-worker.mjs, ADR 035) is plain JavaScript,
  // started by path from beside the module that opens the database: a copy beside each bundle.
  for (const dir of ["build/server", "build"]) {
    await fs.copyFile(
      path.join(root, "app/db/pglite-worker.mjs"),
      path.join(root, dir, "pglite-worker.mjs"),
    );
  }
  // The entry starts a newcomer's first start (an empty embedded data directory) before it
  // imports the server, whose packages take most of a second to load: the two overlap
  // (ADR 101). The server waits for it before opening the database.
  await fs.writeFile(SERVER_ENTRY, SERVER_ENTRY_TEXT);
  console.log(
    `Compiled the server and the CLI: build/server/main.js, build/cli.js (${Date.now() - started} ms)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await compileServer();
