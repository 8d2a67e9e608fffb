import fs from "node:fs";
import net from "node:net";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/*
 * The embedded database on a thread of its own (docs/decisions/035-embedded-database-thread.md).
 * PGlite runs PostgreSQL compiled to WebAssembly: every query is parsed, planned and executed
 * on the thread that calls it. Here that is this worker's thread, so the server's own thread
 * renders pages while the queries run on the machine's other core, as PostgreSQL's own
 * processes do. The server speaks to it as to PostgreSQL: the wire protocol over a Unix socket,
 * through node-postgres, with the same driver and the same code as on PostgreSQL.
 *
 * PGlite has one session, so this serves one connection at a time (the server's pool holds
 * one); a second waits until the first closes. Each message the client sends is handed whole to
 * PGlite's protocol handler and its answer written back as it comes.
 */

/**
 * @typedef {object} WorkerOptions
 * @property {string | null} dataDir The data directory, or null for a database in memory.
 * @property {string} socketPath The Unix socket to listen on (node-postgres's
 *   `${host}/.s.PGSQL.${port}`).
 * @property {string[]} startParams PostgreSQL's start parameters beyond PGlite's defaults.
 */

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
const TERMINATE = 0x58; // 'X'

/** @type {WorkerOptions} */
const options = workerData;
const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);

async function start() {
  // The extensions the migrations create (pg_trgm: the employee dashboard's search indexes;
  // btree_gist: the exclusion constraint against double-booking a handyman).
  const extensions = { pg_trgm, btree_gist };
  const startParams = [...PGlite.defaultStartParams, ...options.startParams];
  const db = options.dataDir
    ? await PGlite.create(options.dataDir, { extensions, startParams })
    : await PGlite.create({ extensions, startParams });

  /** One connection at a time: the next begins when the one before has closed. */
  let sessions = Promise.resolve();

  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    socket.pause();
    sessions = sessions.then(() => serve(db, socket));
  });
  fs.rmSync(options.socketPath, { force: true });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.socketPath, () => resolve(undefined));
  });
  port.postMessage({ ready: true });

  port.on("message", (message) => {
    if (message !== "close") return;
    server.close();
    // The open connection (if any) was ended by the pool before this; the database closes once
    // its last session has.
    void sessions
      .then(() => db.close())
      .then(() => port.postMessage({ closed: true }))
      .catch((error) => port.postMessage({ failed: String(error?.message ?? error) }));
  });
}

/**
 * Serves one client until it goes: its messages to PGlite, one by one, in order.
 * @param {PGlite} db
 * @param {net.Socket} socket
 * @returns {Promise<void>}
 */
function serve(db, socket) {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    let started = false;
    let work = Promise.resolve();
    let done = false;

    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      // A client gone in the middle of a transaction leaves it open in the one session.
      void work
        .then(async () => {
          if (db.isInTransaction()) await db.exec("ROLLBACK");
        })
        .catch(() => {})
        .then(resolve);
    };

    /** @returns {Buffer | undefined} The next whole message, or undefined until it arrives. */
    const nextMessage = () => {
      if (!started) {
        if (buffered.length < 8) return undefined;
        const length = buffered.readInt32BE(0);
        if (buffered.length < length) return undefined;
        return buffered.subarray(0, length);
      }
      if (buffered.length < 5) return undefined;
      const length = 1 + buffered.readInt32BE(1);
      if (buffered.length < length) return undefined;
      return buffered.subarray(0, length);
    };

    /** @param {Buffer} message */
    const handle = async (message) => {
      if (!started) {
        const code = message.readInt32BE(4);
        // No TLS on a local socket: "N", and the client goes on in the clear.
        if (code === SSL_REQUEST) return void socket.write("N");
        if (code === CANCEL_REQUEST) return finish();
        if (code === PROTOCOL_3) started = true;
      } else if (message[0] === TERMINATE) {
        return finish();
      }
      await db.execProtocolRawStream(message, {
        onRawData: (data) => {
          if (!socket.destroyed) socket.write(data);
        },
      });
    };

    socket.on("data", (/** @type {Buffer} */ chunk) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      for (let message = nextMessage(); message; message = nextMessage()) {
        buffered = buffered.subarray(message.length);
        // A view, not a copy: each chunk the socket gives is a buffer of its own, never reused.
        work = work.then(() => (done ? undefined : handle(message)));
      }
      work = work.catch((error) => {
        port.postMessage({ failed: String(error?.message ?? error) });
        finish();
      });
    });
    socket.on("error", finish);
    socket.on("close", finish);
    socket.resume();
  });
}

start().catch((error) => {
  port.postMessage({ failed: String(error?.message ?? error) });
});
