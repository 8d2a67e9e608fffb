// Used by `npm start` and `npm run cli`: build when there is no build of the sources as they are
// (a fresh clone, or sources changed since), else leave build/ alone. Processes starting together
// build once: the first takes build/.lock, the others wait for it and then find the build done.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { isBuilt } from "./fingerprint.mjs";

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Takes the lock file, waiting while a live process holds it; returns its release. */
function lock(file, log) {
  let told = false;
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: "wx" });
      return () => fs.rmSync(file, { force: true });
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    let holder;
    try {
      holder = Number(fs.readFileSync(file, "utf8"));
    } catch {
      continue; // released meanwhile
    }
    if (!holder || !isAlive(holder)) {
      fs.rmSync(file, { force: true }); // left by a build that was killed
      continue;
    }
    if (!told)
      log(`Another process (pid ${holder}) is building the application; waiting for it...`);
    told = true;
    sleep(500);
  }
}

/**
 * Builds unless build/ holds a complete build of the current sources. `log` receives the
 * messages and `stdio` decides where the build's own output goes (the CLI keeps stdout for its
 * answers).
 */
export function ensureBuild(root, { log = console.log, stdio = "inherit" } = {}) {
  if (isBuilt(root)) return;
  fs.mkdirSync(path.join(root, "build"), { recursive: true });
  const release = lock(path.join(root, "build", ".lock"), log);
  try {
    if (isBuilt(root)) return;
    log("Building the application (first start, or the sources changed)...");
    execFileSync(process.execPath, [path.join(root, "scripts/build.mjs")], { cwd: root, stdio });
  } finally {
    release();
  }
}
