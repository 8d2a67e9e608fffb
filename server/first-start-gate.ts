import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openEmbeddedEarly, WORKER_FILE } from "~/db/embedded-open.server";
import { databaseTemplateDir, isEmptyDatabaseDir } from "~/db/template.server";
import { env } from "~/lib/env.server";
import type { FirstStartMessage } from "./first-start";

/*
 * A newcomer's first start begins here, before the server's own modules load (ADR 101, amending
 * ADR 092). The build's entry (build/server/main.js, written by scripts/build/compile-server.mjs)
 * imports this small module first; on an empty embedded data directory it starts the process
 * that writes the demo data (build/server/first-start.js), and only then imports the server
 * (build/server/start.js), whose packages take most of a second to load: the two load side by
 * side. The server opens and migrates the database, hands the process its address (`seed`) and
 * waits for it. The entry then begins opening the embedded database here too (ADR 105,
 * `openDatabaseEarly`): on every start, first or not, PGlite's worker starts while the server's
 * modules load. This module imports only Node's own modules, the settings' parser, the lock and
 * the template's check.
 */

/** A newcomer's first start under way: its process, waiting for the database's address. */
export type FirstStart = {
  /**
   * Sends the process the embedded database's address and resolves once it has exited: whether
   * it succeeded (the demo written, or nothing to write).
   */
  seed(databaseUrl: string): Promise<boolean>;
  /** Tells the process there is nothing to write; resolves once it has exited. */
  abandon(): Promise<boolean>;
};

function firstStartProcess(firstStartEntry: string, nodeArgs: string[]): FirstStart {
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, firstStartEntry], {
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    env: process.env,
  });
  const exited = new Promise<boolean>((resolve) => {
    child.once("error", () => resolve(false));
    child.once("exit", (exitCode) => resolve(exitCode === 0));
  });
  // Until the server sends the address, the process must not keep this one alive on its own
  // (a server that fails to start exits, and the process ends with the channel).
  child.unref();
  child.channel?.unref();
  // The server answers its public pages before the demo is written (ADR 108): the demo's
  // process yields the processor to the server's start-up, which would otherwise share it.
  if (child.pid) {
    try {
      os.setPriority(child.pid, 19);
    } catch {
      // not allowed here: it runs at the server's priority
    }
  }
  return {
    async seed(databaseUrl) {
      if (!child.connected) return exited;
      child.ref();
      child.send({ databaseUrl } satisfies FirstStartMessage);
      return exited;
    },
    async abandon() {
      if (child.connected) child.disconnect();
      return exited;
    },
  };
}

/**
 * Starts a newcomer's first start when this is one: the embedded database (no DATABASE_URL), an
 * empty data directory, the demo wanted, a built first-start process beside this module.
 * Returns undefined when there is nothing to run (the settings, if refused, are refused by the
 * server with their message). `nodeArgs`: Node's options for the process (the tests run the
 * sources with tsx).
 */
export function beginFirstStart(
  firstStartEntry = path.join(import.meta.dirname, "first-start.js"),
  nodeArgs: string[] = [],
): FirstStart | undefined {
  let config: ReturnType<typeof env>;
  try {
    config = env();
  } catch {
    return undefined;
  }
  // Nothing to write: PostgreSQL, a database that exists, or no demo wanted (SEED_DEMO=false).
  if (config.databaseUrl || config.seedDemo === false) return undefined;
  if (!isEmptyDatabaseDir(path.join(config.dataDir, "pglite"))) return undefined;
  if (!fs.existsSync(firstStartEntry)) return undefined;
  return firstStartProcess(firstStartEntry, nodeArgs);
}

/**
 * Begins opening the embedded database (its lock, the template's copy into an empty directory,
 * PGlite's worker) before the server's modules load; the server's openDatabase takes it over
 * (ADR 105). Nothing on PostgreSQL, with settings the server will refuse, or without a built
 * worker beside this module (the sources run under tsx open the database as before).
 */
export function openDatabaseEarly(workerFile = path.join(import.meta.dirname, WORKER_FILE)) {
  let config: ReturnType<typeof env>;
  try {
    config = env();
  } catch {
    return;
  }
  if (config.databaseUrl || !fs.existsSync(workerFile)) return;
  openEmbeddedEarly(config.dataDir, databaseTemplateDir(), workerFile);
}
