import { asc, gte } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { introCalls } from "~/db/schema";

/*
 * Intro calls booked through the built-in scheduler (DESIGN.md decision 7), for employees.
 * TODO(issue 6 item 8): switch to listUpcomingIntroCalls() from
 * app/features/intro-calls/queries.server.ts once the booking feature lands.
 */

export const INTRO_CALLS_LIMIT = 50;

export type IntroCallRow = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  startsAt: string;
};

/** Calls that have not started yet, soonest first. */
export async function listUpcomingIntroCallsForEmployees(
  now = new Date(),
  database: DbOrTx = db(),
): Promise<IntroCallRow[]> {
  const rows = await database
    .select({
      id: introCalls.id,
      name: introCalls.name,
      email: introCalls.email,
      phone: introCalls.phone,
      startsAt: introCalls.startsAt,
    })
    .from(introCalls)
    .where(gte(introCalls.startsAt, now))
    .orderBy(asc(introCalls.startsAt))
    .limit(INTRO_CALLS_LIMIT);
  return rows.map((r) => ({ ...r, startsAt: r.startsAt.toISOString() }));
}
