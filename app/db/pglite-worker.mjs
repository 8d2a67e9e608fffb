import fs from "node:fs";
import net from "node:net";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";

/*
 * The embedded database on a thread of its own (docs/decisions/035-embedded-database-thread.md).
 * PGlite runs PostgreSQL compiled to WebAssembly: every query is parsed, planned and executed
 * on the thread that calls it. Here that is this worker's thread, so the server's own thread
 * renders pages while the queries run on the machine's other core, as PostgreSQL's own
 * processes do. The server speaks to it as to PostgreSQL: the wire protocol over a Unix socket,
 * through node-postgres, with the same driver and the same code as on PostgreSQL.
 *
 * PGlite has one session; this serves several connections on it, one exchange at a time
 * (docs/decisions/037-statements-and-connections-of-the-embedded-database.md). An exchange is
 * what a client sends up to a Sync or a simple Query: a whole query, handed to PGlite in one
 * call, and its answer written back to that client as it comes. A connection that leaves the
 * session inside a transaction has the session to itself until the transaction ends: the other
 * connections' exchanges wait, so every transaction sees what it would on its own. So the
 * server's queries queue here, where the session is never idle while one waits, instead of in
 * the server's pool behind a connection waiting for the server's thread to read its answer.
 */

/**
 * @typedef {object} WorkerOptions
 * @property {string | null} dataDir The data directory, or null for a database in memory.
 * @property {string | null} copyFrom A template's database directory to copy into the empty
 *   `dataDir` first (template.server.ts's templateToCopy decided it), or null.
 * @property {string} socketPath The Unix socket to listen on (node-postgres's
 *   `${host}/.s.PGSQL.${port}`).
 * @property {string[]} startParams PostgreSQL's start parameters beyond PGlite's defaults.
 */

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
const TERMINATE = 0x58; // 'X'
const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const PARSE = 0x50; // 'P'
/** An answer's first buffer: most answers of the application's queries fit in it. */
const ANSWER_START_BYTES = 16 * 1024;

/** @type {WorkerOptions} */
const options = workerData;
const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);

/**
 * @typedef {object} Connection
 * @property {net.Socket} socket
 * @property {Buffer} buffered Bytes received and not yet part of a whole exchange.
 * @property {boolean} started Past the start-up packet.
 * @property {boolean} closed
 * @property {Set<string>} statements The statements it prepared by name, dropped when it goes.
 */

/**
 * @typedef {object} Exchange
 * @property {Connection} connection
 * @property {"messages" | "close"} kind
 * @property {Buffer} [messages]
 */

/**
 * A first start (ADR 092, ADR 105): the build's template copied into the empty data directory
 * here, on this thread, while the server's thread loads its modules. The copy is made beside
 * the directory and renamed into place, so a start interrupted half-way leaves an empty
 * directory, never half a database.
 * @param {string} from
 * @param {string} dataDir
 */
function copyTemplate(from, dataDir) {
  const partial = `${dataDir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.cpSync(from, partial, { recursive: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.renameSync(partial, dataDir);
}

async function start() {
  if (options.copyFrom && options.dataDir) copyTemplate(options.copyFrom, options.dataDir);
  // The extensions the migrations create (pg_trgm: the employee dashboard's search indexes;
  // btree_gist: the exclusion constraint against double-booking a handyman; unaccent: search
  // folds accents and quotes, migration 0007).
  const extensions = { pg_trgm, btree_gist, unaccent };
  const startParams = [...PGlite.defaultStartParams, ...options.startParams];
  const db = options.dataDir
    ? await PGlite.create(options.dataDir, { extensions, startParams })
    : await PGlite.create({ extensions, startParams });

  /** @type {Exchange[]} */
  const queue = [];
  let running = false;
  /** @type {Connection | null} The connection inside a transaction, which has the session. */
  let owner = null;
  /** @type {Set<Connection>} */
  const open = new Set();
  /** @type {(() => void) | null} */
  let onIdle = null;

  /** Runs the next exchange the session may take: the owner's, or else the oldest. */
  const pump = () => {
    if (running) return;
    const index = owner ? queue.findIndex((e) => e.connection === owner) : 0;
    if (index < 0 || queue.length === 0) {
      if (open.size === 0 && queue.length === 0) onIdle?.();
      return;
    }
    const [exchange] = queue.splice(index, 1);
    running = true;
    run(exchange)
      .catch((error) => {
        // PostgreSQL's own errors are answers (ErrorResponse), never thrown: what throws is
        // PGlite itself (its WebAssembly out of memory, a trap), whose state is then unknown.
        // The thread ends; the server starts a fresh one on the same data (ADR 035).
        port.postMessage({ failed: String(error?.message ?? error) });
        process.exit(1);
      })
      .finally(() => {
        running = false;
        pump();
      });
  };

  /** @param {Exchange} exchange */
  const run = async ({ connection, kind, messages }) => {
    if (kind === "close") {
      // What PostgreSQL ends with a connection: a transaction left open is rolled back, and
      // its prepared statements go (the next client would reuse a name it knows nothing of).
      if (owner === connection) {
        owner = null;
        if (db.isInTransaction()) await db.exec("ROLLBACK");
      }
      for (const name of connection.statements) {
        await db.exec(`DEALLOCATE "${name.replaceAll('"', '""')}"`).catch(() => {});
      }
      return;
    }
    if (!messages) return;
    // The exchange's whole answer, gathered into one buffer and written once: one write here
    // and one read on the server's side per query, however many chunks PGlite hands over
    // (ADR 066). `data` is a view of PGlite's WebAssembly memory (PostgreSQL's send buffer),
    // valid only until this callback returns: PGlite writes the next chunk of the answer over
    // it, and a growth of its memory detaches it, so it is copied before the callback returns
    // (ADR 035, "PGlite's buffers"). The buffer is the exchange's own: the socket may keep it.
    let answer = Buffer.allocUnsafe(ANSWER_START_BYTES);
    let length = 0;
    await db.execProtocolRawStream(messages, {
      onRawData: (data) => {
        if (length + data.length > answer.length) {
          const grown = Buffer.allocUnsafe(Math.max(answer.length * 2, length + data.length));
          answer.copy(grown, 0, 0, length);
          answer = grown;
        }
        answer.set(data, length);
        length += data.length;
      },
    });
    if (length > 0 && !connection.socket.destroyed)
      connection.socket.write(answer.subarray(0, length));
    owner = db.isInTransaction() ? connection : null;
  };

  /** @param {Exchange} exchange */
  const enqueue = (exchange) => {
    queue.push(exchange);
    pump();
  };

  /** @param {Connection} connection */
  const close = (connection) => {
    if (connection.closed) return;
    connection.closed = true;
    connection.socket.destroy();
    // What it sent before it went still runs, in order, as PostgreSQL reads a connection's
    // messages to its end (a COMMIT sent just before Terminate commits); then the clean-up.
    open.delete(connection);
    enqueue({ connection, kind: "close" });
  };

  /** @param {Connection} connection */
  const receive = (connection) => {
    // The start-up packet (length first, no type byte); the client waits for its answer
    // before it sends anything else.
    while (!connection.started && connection.buffered.length >= 8) {
      const length = connection.buffered.readInt32BE(0);
      if (connection.buffered.length < length) return;
      const message = connection.buffered.subarray(0, length);
      connection.buffered = connection.buffered.subarray(length);
      const code = message.readInt32BE(4);
      // No TLS on a local socket: "N", and the client goes on in the clear.
      if (code === SSL_REQUEST) connection.socket.write("N");
      else if (code === CANCEL_REQUEST) return close(connection);
      else {
        if (code === PROTOCOL_3) connection.started = true;
        enqueue({ connection, kind: "messages", messages: message });
      }
    }
    if (!connection.started) return;
    // Whole exchanges: everything up to each Sync or simple Query. (Views, not copies: each
    // chunk the socket gives is a buffer of its own, never reused.)
    const bytes = connection.buffered;
    let begin = 0;
    let at = 0;
    while (at + 5 <= bytes.length) {
      const type = bytes[at];
      if (type === TERMINATE) return close(connection);
      const length = 1 + bytes.readInt32BE(at + 1);
      if (at + length > bytes.length) break;
      if (type === PARSE) {
        const name = bytes.toString("utf8", at + 5, bytes.indexOf(0, at + 5));
        if (name) connection.statements.add(name);
      }
      at += length;
      if (type === SYNC || type === QUERY) {
        enqueue({ connection, kind: "messages", messages: bytes.subarray(begin, at) });
        begin = at;
      }
    }
    connection.buffered = bytes.subarray(begin);
  };

  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    /** @type {Connection} */
    const connection = {
      socket,
      buffered: Buffer.alloc(0),
      started: false,
      closed: false,
      statements: new Set(),
    };
    open.add(connection);
    socket.on("data", (/** @type {Buffer} */ chunk) => {
      connection.buffered =
        connection.buffered.length === 0 ? chunk : Buffer.concat([connection.buffered, chunk]);
      receive(connection);
    });
    socket.on("error", () => close(connection));
    socket.on("close", () => close(connection));
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
    // The pool ended its connections before this; the database closes once the last one's
    // exchanges are done.
    void new Promise((resolve) => {
      onIdle = () => resolve(undefined);
      pump();
    })
      .then(() => db.close())
      .then(() => port.postMessage({ closed: true }))
      .catch((error) => port.postMessage({ failed: String(error?.message ?? error) }));
  });
}

start().catch((error) => {
  port.postMessage({ failed: String(error?.message ?? error) });
});
