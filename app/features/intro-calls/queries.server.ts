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

/** An upcoming call as the employee dashboard lists it (its start as an ISO string). */
export type IntroCallListing = Pick<IntroCall, "id" | "name" | "email" | "phone"> & {
  startsAt: string;
};

/** The upcoming calls for the employee dashboard, soonest first. */
export async function listIntroCallsForStaff(
  options: { now?: Date; limit?: number; database?: DbOrTx } = {},
): Promise<IntroCallListing[]> {
  const calls = await listUpcomingIntroCalls(options);
  return calls.map((call) => ({
    id: call.id,
    name: call.name,
    email: call.email,
    phone: call.phone,
    startsAt: call.startsAt.toISOString(),
  }));
}
