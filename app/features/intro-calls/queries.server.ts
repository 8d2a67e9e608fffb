import { asc, gte } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { introCalls, type IntroCall } from "~/db/schema";

/**
 * Intro calls booked through the built-in scheduler that have not started yet, soonest first
 * (for the employee area). A call counts as upcoming until its 15 minutes are over.
 */
export async function listUpcomingIntroCalls(
  options: { now?: Date; limit?: number; database?: DbOrTx } = {},
): Promise<IntroCall[]> {
  const now = options.now ?? new Date();
  const startedAfter = new Date(now.getTime() - 15 * 60_000);
  return (options.database ?? db())
    .select()
    .from(introCalls)
    .where(gte(introCalls.startsAt, startedAfter))
    .orderBy(asc(introCalls.startsAt))
    .limit(options.limit ?? 200);
}
