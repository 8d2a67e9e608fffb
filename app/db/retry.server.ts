/*
 * Transactions that PostgreSQL aborted because of another one (ADR 040): a serialization
 * failure (SQLSTATE 40001) or a deadlock (40P01) says nothing about the request, only that two
 * transactions met in an order that could not both succeed. The loser is run again, from the
 * start, a bounded number of times, here for every transaction of the process: the database
 * handle's `transaction` is wrapped once when it is opened (client.server.ts).
 *
 * What may be retried: the callback of a top-level transaction, which must not act outside the
 * database before it commits (an e-mail goes through the outbox, a file is written before the
 * transaction and removed on failure). A nested `tx.transaction` (a savepoint) is not retried
 * on its own: its whole transaction was aborted, and the outer one is retried.
 */

/** Attempts in all, the first included; then the last error is the request's error. */
export const TRANSACTION_ATTEMPTS = 5;

const RETRYABLE = new Set(["40001", "40P01"]);

/** The SQLSTATE 40001 or 40P01 of an error or of its cause (Drizzle wraps the driver's). */
export function conflictCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && RETRYABLE.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Before attempt n + 1: a random wait below 10, 20, 40, 80 ms, so the two do not meet again. */
function backoff(attempt: number) {
  const ms = Math.random() * 10 * 2 ** (attempt - 1);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

type Transactional = { transaction: (...args: never[]) => Promise<unknown> };

/**
 * Makes `database.transaction` run its callback again when PostgreSQL aborted it for a
 * conflict, up to TRANSACTION_ATTEMPTS times. Returns the same object.
 */
export function retryConflicts<D extends Transactional>(database: D): D {
  const transaction = database.transaction.bind(database) as (
    ...args: unknown[]
  ) => Promise<unknown>;
  const retrying = async (...args: unknown[]) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await transaction(...args);
      } catch (error) {
        const code = conflictCode(error);
        if (attempt >= TRANSACTION_ATTEMPTS || !code) throw error;
        console.error(
          JSON.stringify({ level: 40, msg: "transaction conflict, retrying", code, attempt }),
        );
        await backoff(attempt);
      }
    }
  };
  (database as { transaction: unknown }).transaction = retrying;
  return database;
}
