import { and, asc, eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { memberships, profiles, user } from "~/db/schema";
import { loadClosedDays, loadHandymen } from "~/features/availability/index.server";
import {
  addDays,
  businessToday,
  isBusinessDay,
  longDate,
  weekday,
  type IsoDate,
} from "~/lib/business-calendar";
import { listHandymen } from "./dedicated.server";
import { personName } from "~/lib/names";

/*
 * 'Handymen' (issue 41, item 4): one row per handyman with his members, the hours booked in
 * the next 14 days against the hours he works in them, and his time off; then the members
 * with no dedicated handyman.
 */

export const OVERVIEW_DAYS = 14;

export type MemberLine = { id: string; name: string };

export type HandymanRow = {
  id: string;
  name: string;
  photoUrl: string | null;
  members: MemberLine[];
  memberCount: number;
  bookedMinutes: number;
  availableMinutes: number;
  timeOff: string[];
};

const nameOf = (r: { firstName: string | null; lastName: string | null; email: string }) =>
  personName(r.firstName, r.lastName) || r.email;

/** Members (an active membership) of each handyman, and those without one. */
async function membersByHandyman() {
  const rows = await db()
    .select({
      id: profiles.userId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: user.email,
      handymanId: profiles.dedicatedHandymanId,
    })
    .from(profiles)
    .innerJoin(user, eq(user.id, profiles.userId))
    .where(
      and(
        eq(profiles.isEmployee, false),
        sql`exists (select 1 from ${memberships} where ${memberships.customerId} = ${profiles.userId} and ${memberships.status} = 'active')`,
      ),
    )
    .orderBy(asc(profiles.firstName), asc(profiles.lastName));
  const by = new Map<string | null, MemberLine[]>();
  for (const r of rows) {
    const list = by.get(r.handymanId) ?? [];
    list.push({ id: r.id, name: nameOf(r) });
    by.set(r.handymanId, list);
  }
  return by;
}

export async function handymenOverview(now = new Date()) {
  const from: IsoDate = businessToday(now);
  const to = addDays(from, OVERVIEW_DAYS - 1);
  const [cards, schedules, closed, members] = await Promise.all([
    listHandymen(),
    loadHandymen(from, to),
    loadClosedDays(from, to),
    membersByHandyman(),
  ]);
  const handymanIds = new Set(cards.map((c) => c.id));
  const rows: HandymanRow[] = cards.map((card) => {
    const schedule = schedules.find((s) => s.id === card.id);
    let booked = 0;
    let available = 0;
    for (let day = from; day <= to; day = addDays(day, 1)) {
      for (const [start, end] of schedule?.busy.get(day) ?? []) booked += end - start;
      if (!isBusinessDay(day, closed)) continue;
      if (schedule?.timeOff.some((t) => t.startDate <= day && day <= t.endDate)) continue;
      const hours = schedule?.hours[weekday(day)];
      if (hours) available += hours.end - hours.start;
    }
    const list = members.get(card.id) ?? [];
    return {
      id: card.id,
      name: card.name,
      photoUrl: card.photoUrl,
      members: list.slice(0, 100),
      memberCount: list.length,
      bookedMinutes: booked,
      availableMinutes: available,
      timeOff: (schedule?.timeOff ?? []).map((t) =>
        t.startDate === t.endDate
          ? longDate(t.startDate)
          : `${longDate(t.startDate)} to ${longDate(t.endDate)}`,
      ),
    };
  });
  // Members with none, or with one who is no longer a handyman.
  const unassigned = [...members.entries()]
    .filter(([id]) => id === null || !handymanIds.has(id))
    .flatMap(([, list]) => list);
  return { rows, unassigned: unassigned.slice(0, 200), unassignedCount: unassigned.length };
}
