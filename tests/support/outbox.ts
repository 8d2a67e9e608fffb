import { isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";

/**
 * What the outbox still has to send: every undelivered item, except the payments' schedule
 * occasions not yet due (ADR 055), such as tomorrow's reconciliation that every process plans
 * when it starts and has never tried.
 */
export async function undeliveredNow(db: Database, now = new Date()) {
  const rows = await db.select().from(outbox).where(isNull(outbox.deliveredAt));
  return rows.filter(
    (r) => !(r.kind === "payment_job" && r.attempts === 0 && r.nextAttemptAt > now),
  );
}
