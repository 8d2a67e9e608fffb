import pino from "pino";
import { env } from "./env.server";

/*
 * Log lines go to stdout without ever making the server wait for it. A synchronous write to a
 * pipe whose reader has stopped reading (a process manager or a test harness that no longer
 * drains stdout) blocks the whole process once the pipe is full: it answers nothing, and not
 * even SIGTERM or the forced exit that follows it can run. So lines are queued and written
 * asynchronously; while stdout takes nothing, at most MAX_QUEUED_BYTES wait and further lines
 * are dropped.
 */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;
/** stdout has taken nothing for this long while a write is pending: it is not being read. */
const STUCK_AFTER_MS = 250;

const destination = pino.destination({ dest: 1, sync: false, maxLength: MAX_QUEUED_BYTES });
type Queue = { _len: number; _writing: boolean };
const queue = destination as unknown as Queue;
let lastProgress = Date.now();
destination.on("write", () => (lastProgress = Date.now()));
destination.on("error", () => {});
const stuck = () => queue._writing && Date.now() - lastProgress > STUCK_AFTER_MS;

// At exit pino writes what is still queued synchronously: with a reader that has stopped, that
// write would never return, so the lines are given up instead.
const flushSync = destination.flushSync.bind(destination);
destination.flushSync = () => {
  if (stuck()) return;
  try {
    flushSync();
  } catch {
    // stdout closed or not ready: nothing more to do at exit
  }
};

/** JSON lines; secrets are redacted wherever they could appear. */
export const logger = pino(
  {
    level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info"),
    base: undefined,
    redact: {
      paths: [
        "password",
        "*.password",
        "token",
        "*.token",
        "secret",
        "*.secret",
        "headers.cookie",
        "req.headers.cookie",
        "req.headers.authorization",
        "*.totpURI",
        "*.backupCodes",
      ],
      censor: "[redacted]",
    },
  },
  destination,
);

export function configureLogger() {
  logger.level = env().logLevel;
}

/**
 * Waits (at most `timeoutMs`) until the queued lines are written, before a deliberate exit.
 * Gives up at once when stdout is not being read.
 */
export async function flushLogs(timeoutMs = 1_000) {
  const deadline = Date.now() + timeoutMs;
  while (queue._len > 0 && Date.now() < deadline && !stuck()) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
