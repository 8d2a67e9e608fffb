import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { acquireDirectoryLock, type DirectoryLock } from "./lock.server";
import { MIGRATIONS_DIR, templateToCopy } from "./template.server";

/*
 * Opening the embedded database as far as it needs none of the server's packages (ADR 105):
 * the data directory's lock, the build's template copied into an empty directory, and PGlite's
 * worker thread started and listening on its Unix socket. client.server.ts's openDatabase does
 * this and builds its pool on it. The server's entry begins it before the server's modules load
 * (first-start-gate.ts, `openDatabaseEarly`), so the worker's start (compiling PGlite's
 * WebAssembly, opening the database) runs on its own thread while the server's modules load on
 * the main one; openDatabase then takes that opening over (`takeEarlyOpening`).
 */

/**
 * PGlite's start parameters beyond its defaults: a 16 MB buffer cache instead of PostgreSQL's
 * 128 MB. PGlite touches the whole cache at start, which alone made the embedded server hold over
 * 500 MB resident; a small business's data is read from the operating system's page cache just
 * as fast (docs/decisions/018-light-at-rest.md).
 */
const PGLITE_START_PARAMS = ["-c", "shared_buffers=16MB"];

/**
 * The embedded database's worker: beside the module that opens it, whether that runs from the
 * sources (app/db/) or from a compiled bundle (build/server/, build/), which the build gives a
 * copy.
 */
export const WORKER_FILE = "pglite-worker.mjs";

export type WorkerMessage = { ready: true } | { failed: string } | { closed: true };

/** An embedded database open: its directory's lock, its worker and the worker's socket. */
export type EmbeddedOpening = {
  /** The data directory's lock (none for a database in memory). */
  lock: DirectoryLock | undefined;
  /** The database's directory (DATA_DIR/pglite), or null for a database in memory. */
  pgDir: string | null;
  /** The directory of the worker's socket (node-postgres's `host`). */
  socketDir: string;
  workerFile: string;
  /** The worker, listening; unreferenced, with no listener of the opener's left on it. */
  worker: Worker;
  /**
   * Whether the directory was empty and filled from the build's template: exactly the
   * migrations' result (its fingerprint matched), so they have nothing to apply.
   */
  fromTemplate: boolean;
};

/**
 * Starts a worker and resolves once it listens; rejects (and ends it) if it cannot. `copyFrom`:
 * a template's database directory the worker first copies into the empty `pgDir`.
 */
export async function spawnDatabaseWorker(
  workerFile: string,
  pgDir: string | null,
  socketDir: string,
  copyFrom: string | null = null,
): Promise<Worker> {
  const worker = new Worker(workerFile, {
    workerData: {
      dataDir: pgDir,
      copyFrom,
      socketPath: path.join(socketDir, ".s.PGSQL.5432"),
      startParams: PGLITE_START_PARAMS,
    },
    // Its JavaScript is a thin layer over the WebAssembly engine, whose memory is outside the
    // heap: a small young generation saves memory at no cost in speed.
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`The database worker exited (${code})`));
      const onMessage = (message: WorkerMessage) => {
        worker.off("error", reject);
        worker.off("exit", onExit);
        if ("ready" in message) resolve();
        else reject(new Error(`The embedded database did not open: ${JSON.stringify(message)}`));
      };
      worker.once("error", reject);
      worker.once("exit", onExit);
      worker.once("message", onMessage);
    });
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  // Nothing here keeps the process alive: a process that is done exits, as it did when PGlite
  // ran on the server's own thread.
  worker.unref();
  return worker;
}

/**
 * Opens an embedded database: with a data directory, takes its lock (DataDirectoryLockedError
 * when another process holds it); then starts the worker, which first fills the directory from
 * `template` when it is empty and the template matches the migrations (the copy, 42 MB, on the
 * worker's thread: the server's thread goes on loading its modules meanwhile).
 */
export async function openEmbedded(options: {
  dataDir: string | null;
  template?: string;
  workerFile: string;
}): Promise<EmbeddedOpening> {
  let lock: DirectoryLock | undefined;
  let pgDir: string | null = null;
  if (options.dataDir) {
    pgDir = path.join(options.dataDir, "pglite");
    fs.mkdirSync(pgDir, { recursive: true });
    // PGlite lets a second process open the same directory and corrupt it: refuse instead.
    lock = acquireDirectoryLock(options.dataDir);
  }
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-db-"));
  try {
    const copyFrom =
      pgDir && options.template ? templateToCopy(options.template, MIGRATIONS_DIR, pgDir) : null;
    const worker = await spawnDatabaseWorker(options.workerFile, pgDir, socketDir, copyFrom);
    return {
      lock,
      pgDir,
      socketDir,
      workerFile: options.workerFile,
      worker,
      fromTemplate: copyFrom !== null,
    };
  } catch (error) {
    fs.rmSync(socketDir, { recursive: true, force: true });
    lock?.release();
    throw error;
  }
}

/*
 * The opening begun by the server's entry, kept on globalThis: the entry's module and the
 * server's bundle each have their own copy of this module.
 */
const earlyKey = Symbol.for("peachtree-handyman.early-database");
type Early = { dataDir: string; opening: Promise<EmbeddedOpening> };
type GlobalWithEarly = typeof globalThis & { [earlyKey]?: Early };

/**
 * Begins opening the embedded database of `dataDir` for the server that is about to load; the
 * server's openDatabase of the same directory takes it over.
 */
export function openEmbeddedEarly(dataDir: string, template: string, workerFile: string) {
  const opening = openEmbedded({ dataDir, template, workerFile });
  // A failure is the server's to report: it opens again and meets the same error itself.
  opening.catch(() => {});
  (globalThis as GlobalWithEarly)[earlyKey] = { dataDir: path.resolve(dataDir), opening };
}

/**
 * The opening the entry began for `dataDir`, taken once; undefined when there is none, or when
 * it failed (the caller opens the database itself, and meets and reports the error), or when
 * its worker has ended meanwhile.
 */
export async function takeEarlyOpening(dataDir: string): Promise<EmbeddedOpening | undefined> {
  const early = (globalThis as GlobalWithEarly)[earlyKey];
  if (!early || early.dataDir !== path.resolve(dataDir)) return undefined;
  delete (globalThis as GlobalWithEarly)[earlyKey];
  const opening = await early.opening.catch(() => undefined);
  // A worker that exited between listening and now (threadId -1) is not taken over.
  if (opening && opening.worker.threadId === -1) {
    fs.rmSync(opening.socketDir, { recursive: true, force: true });
    opening.lock?.release();
    return undefined;
  }
  return opening;
}
