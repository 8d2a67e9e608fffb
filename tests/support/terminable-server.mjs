/*
 * The production server (build/server/main.js) with one addition for the fault tests: SIGUSR2
 * terminates its embedded database's worker thread, as a crash of that thread would end it.
 * The handle is the one the server makes its database (app/db/client.server.ts, on globalThis).
 */
process.on("SIGUSR2", () => {
  const handle = globalThis[Symbol.for("peachtree-handyman.database")];
  void handle?.embeddedWorker?.().terminate();
});
await import(new URL("../../build/server/main.js", import.meta.url).href);
