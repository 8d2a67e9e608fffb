import { and, count, eq, gte, lt, sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { appointments, introCalls, memberships, leads } from "~/db/schema";
import { BUSINESS_TIME_ZONE } from "~/lib/business-calendar";

/* ---------- the funnel (issue 29 item 6; the owner's reports draw it) ---------- */

export type FunnelMonth = {
  /** YYYY-MM in the business time zone. */
  month: string;
  leads: number;
  introCalls: number;
  walkThrus: number;
  offers: number;
  newMembers: number;
};

function monthKey(date: Date) {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: BUSINESS_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
  }).formatToParts(date);
  const y = parts.find((p) => p.type === "year")!.value;
  const m = parts.find((p) => p.type === "month")!.value;
  return `${y}-${m}`;
}

/** The 12 months up to and including the month of `now`, oldest first. */
export function funnelMonths(now: Date) {
  const [y, m] = monthKey(now).split("-").map(Number);
  const months: string[] = [];
  for (let i = 11; i >= 0; i--) {
    const total = y * 12 + (m - 1) - i;
    months.push(`${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, "0")}`);
  }
  return months;
}

/**
 * The funnel per month over the last 12 months (this month last): new leads, intro calls
 * booked, walk-thrus booked, membership offers sent and memberships started. Months are the
 * business's (Atlanta) calendar months.
 */
export async function leadFunnel(
  now = new Date(),
  database: DbOrTx = db(),
): Promise<FunnelMonth[]> {
  const months = funnelMonths(now);
  const first = `${months[0]}-01`;
  const monthOf = (column: unknown) =>
    sql<string>`to_char(${column} at time zone ${BUSINESS_TIME_ZONE}, 'YYYY-MM')`;
  const since = sql`(${first}::date)::timestamp at time zone ${BUSINESS_TIME_ZONE}`;
  const [newLeads, calls, walks, offers, members] = await Promise.all([
    database
      .select({ month: monthOf(leads.createdAt), n: count() })
      .from(leads)
      .where(gte(leads.createdAt, since))
      .groupBy(sql`1`),
    database
      .select({ month: monthOf(introCalls.createdAt), n: count() })
      .from(introCalls)
      .where(gte(introCalls.createdAt, since))
      .groupBy(sql`1`),
    database
      .select({ month: monthOf(appointments.createdAt), n: count() })
      .from(appointments)
      .where(and(eq(appointments.kind, "walk_thru"), gte(appointments.createdAt, since)))
      .groupBy(sql`1`),
    database
      .select({ month: monthOf(leads.offerSentAt), n: count() })
      .from(leads)
      .where(gte(leads.offerSentAt, since))
      .groupBy(sql`1`),
    database
      .select({ month: sql<string>`to_char(${memberships.startDate}, 'YYYY-MM')`, n: count() })
      .from(memberships)
      .where(and(gte(memberships.startDate, first), lt(memberships.startDate, "9999-12-31")))
      .groupBy(sql`1`),
  ]);
  const lookup = (rows: { month: string; n: number }[]) =>
    new Map(rows.map((r) => [r.month, Number(r.n)]));
  const [l, c, w, o, m] = [newLeads, calls, walks, offers, members].map(lookup);
  return months.map((month) => ({
    month,
    leads: l.get(month) ?? 0,
    introCalls: c.get(month) ?? 0,
    walkThrus: w.get(month) ?? 0,
    offers: o.get(month) ?? 0,
    newMembers: m.get(month) ?? 0,
  }));
}
