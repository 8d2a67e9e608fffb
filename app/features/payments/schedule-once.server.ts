import type { DbOrTx } from "~/db/client.server";
import { paymentSchedule } from "~/db/schema";
import { enqueue } from "~/lib/outbox.server";

/**
 * An occasion of the durable schedule (ADR 055), planned once: its payment_schedule row (keyed
 * by job and occasion) and the outbox item that runs it when due, written together; a second
 * plan of the same key writes nothing. False when it was planned already.
 */
export async function scheduleOnce(
  database: DbOrTx,
  occasion: { key: string; kind: string; dueAt: Date; payload: Record<string, unknown> },
) {
  const [row] = await database
    .insert(paymentSchedule)
    .values({ key: occasion.key, kind: occasion.kind, dueAt: occasion.dueAt })
    .onConflictDoNothing({ target: paymentSchedule.key })
    .returning({ key: paymentSchedule.key });
  if (!row) return false;
  await enqueue(
    database,
    "payment_job",
    { job: occasion.kind, key: occasion.key, ...occasion.payload },
    { notBefore: occasion.dueAt },
  );
  return true;
}
