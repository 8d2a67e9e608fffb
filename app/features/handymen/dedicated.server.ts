import { and, asc, eq, gt, ne, or, sql } from "drizzle-orm";
import { db, type DbOrTx, type Tx } from "~/db/client.server";
import { rowsOf } from "~/db/rows";
import { appointments, homes, profiles, user } from "~/db/schema";
import { businessWallClock, timeOfDay, type IsoDate } from "~/lib/business-calendar";
import { business } from "~/lib/business.server";
import { env } from "~/lib/env.server";
import { emailLayout } from "~/lib/mail.server";
import { enqueue } from "~/lib/outbox.server";

/*
 * A member's dedicated handyman (issue 41, ADR 088): one handyman per member, kept on her
 * profile. A new member gets the handyman with the fewest members in her area (her home's
 * city); office staff set or change him on her page or on 'Handymen'.
 */

import type { HandymanCard } from "./types";
import { personName } from "~/lib/names";

const handymanName = (first: string | null, last: string | null) =>
  personName(first, last) || "Handyman";

/** Every employee whose role is 'handyman' (ADR 047), by name. */
export async function listHandymen(database: DbOrTx = db()): Promise<HandymanCard[]> {
  const rows = await database
    .select({
      id: profiles.userId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      photoUrl: profiles.profilePhotoUrl,
    })
    .from(profiles)
    .where(and(eq(profiles.isEmployee, true), eq(profiles.staffRole, "handyman")))
    .orderBy(asc(profiles.firstName), asc(profiles.lastName), asc(profiles.userId));
  return rows.map((r) => ({
    id: r.id,
    name: handymanName(r.firstName, r.lastName),
    firstName: r.firstName || handymanName(r.firstName, r.lastName),
    photoUrl: r.photoUrl,
  }));
}

/** The member's dedicated handyman as her dashboard shows him; null when none is set. */
export async function dedicatedHandymanOf(
  customerId: string,
  database: DbOrTx = db(),
): Promise<HandymanCard | null> {
  const [row] = await database
    .select({
      id: profiles.userId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      photoUrl: profiles.profilePhotoUrl,
    })
    .from(profiles)
    .where(
      and(
        eq(profiles.isEmployee, true),
        eq(
          profiles.userId,
          sql`(select ${profiles.dedicatedHandymanId} from ${profiles} where ${profiles.userId} = ${customerId})`,
        ),
      ),
    );
  return row ? handymanCard(row) : null;
}

/** A handyman's profile fields as a member's dashboard shows him. */
export function handymanCard(row: {
  id: string;
  firstName: string | null;
  lastName: string | null;
  photoUrl: string | null;
}): HandymanCard {
  return {
    id: row.id,
    name: handymanName(row.firstName, row.lastName),
    firstName: row.firstName || handymanName(row.firstName, row.lastName),
    photoUrl: row.photoUrl,
  };
}

/**
 * The handyman a new member gets: the one with the fewest members in her home's city, then the
 * fewest members anywhere, then by name. Undefined when the business has no handyman.
 */
export async function proposedHandymanFor(customerId: string, database: DbOrTx = db()) {
  const result = await database.execute(sql`
    with her as (
      select lower(btrim(${homes.city})) as city from ${homes} where ${homes.customerId} = ${customerId}
    )
    select h.user_id as id
    from ${profiles} h
    left join ${profiles} m on m.dedicated_handyman_id = h.user_id and not m.is_employee
    left join ${homes} mh on mh.customer_id = m.user_id
    where h.is_employee and h.staff_role = 'handyman'
    group by h.user_id, h.first_name, h.last_name
    order by
      count(m.user_id) filter (where lower(btrim(mh.city)) = (select city from her)),
      count(m.user_id),
      h.first_name, h.last_name, h.user_id
    limit 1`);
  return rowsOf<{ id: string }>(result)[0]?.id;
}

/**
 * Gives a member without a dedicated handyman the proposed one (a membership's start calls it
 * in its transaction). Nothing changes for a member who has one.
 */
export async function assignDedicatedHandyman(tx: Tx, customerId: string) {
  const [current] = await tx
    .select({ id: profiles.dedicatedHandymanId })
    .from(profiles)
    .where(eq(profiles.userId, customerId))
    .for("update");
  if (!current || current.id) return current?.id ?? null;
  const proposed = await proposedHandymanFor(customerId, tx);
  if (!proposed) return null;
  await tx
    .update(profiles)
    .set({ dedicatedHandymanId: proposed })
    .where(eq(profiles.userId, customerId));
  return proposed;
}

export class HandymanRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HandymanRejectedError";
  }
}

export const NOT_A_HANDYMAN = "Please choose one of the handymen.";
export const NOT_A_MEMBER_PROFILE = "This customer was not found.";

/**
 * Sets a member's dedicated handyman. Her profile row is locked first, so a form sent twice
 * finds him already set the second time and changes (and tells her) nothing. She hears of a
 * change by e-mail (not of a first assignment, unless `tell` asks for it).
 */
export async function setDedicatedHandyman(
  input: { customerId: string; handymanId: string; staffId: string },
  database: DbOrTx = db(),
) {
  return database.transaction(async (tx) => {
    const [member] = await tx
      .select({ id: profiles.dedicatedHandymanId, isEmployee: profiles.isEmployee })
      .from(profiles)
      .where(eq(profiles.userId, input.customerId))
      .for("update");
    if (!member || member.isEmployee) throw new HandymanRejectedError(NOT_A_MEMBER_PROFILE);
    const handyman = (await listHandymen(tx)).find((h) => h.id === input.handymanId);
    if (!handyman) throw new HandymanRejectedError(NOT_A_HANDYMAN);
    if (member.id === handyman.id) return { changed: false as const, handyman, previousId: null };
    await tx
      .update(profiles)
      .set({ dedicatedHandymanId: handyman.id })
      .where(eq(profiles.userId, input.customerId));
    await mailNewHandyman(tx, input.customerId, handyman);
    return { changed: true as const, handyman, previousId: member.id };
  });
}

async function mailNewHandyman(tx: Tx, customerId: string, handyman: HandymanCard) {
  const [person] = await tx
    .select({ email: user.email, firstName: profiles.firstName })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, customerId));
  if (!person) return;
  const url = `${env().publicUrl}/dashboard`;
  const hello = `Hello${person.firstName ? ` ${person.firstName}` : ""},`;
  const lines = [
    `${handyman.name} is now your dedicated handyman at ${business().name}.`,
    `Your next visits are booked with ${handyman.firstName} first. Questions? Call us at ${business().phone}.`,
  ];
  await enqueue(
    tx,
    "email",
    {
      to: person.email,
      subject: `Your handyman is now ${handyman.name}`,
      text: [hello, "", ...lines, "", `Your dashboard: ${url}`].join("\n"),
      html: emailLayout({
        heading: `Your handyman is now ${handyman.name}`,
        paragraphs: [hello, ...lines],
        action: { label: "See your dashboard", url },
      }),
    },
    { recipientId: customerId },
  );
}

/**
 * The member's booked visits still to come that another handyman than `handymanId` holds:
 * what 'Reassign' may move to him, each at its own day and time.
 */
export async function futureVisitsNotWith(
  customerId: string,
  handymanId: string,
  now = new Date(),
  database: DbOrTx = db(),
) {
  const { date, minute } = businessWallClock(now);
  const today: IsoDate = date;
  return database
    .select({
      id: appointments.id,
      scheduledDate: appointments.scheduledDate,
      startTime: appointments.startTime,
    })
    .from(appointments)
    .where(
      and(
        eq(appointments.customerId, customerId),
        eq(appointments.kind, "visit"),
        eq(appointments.status, "booked"),
        or(
          gt(appointments.scheduledDate, today),
          and(eq(appointments.scheduledDate, today), gt(appointments.startTime, timeOfDay(minute))),
        ),
        or(
          sql`${appointments.assignedEmployeeId} is null`,
          ne(appointments.assignedEmployeeId, handymanId),
        ),
      ),
    )
    .orderBy(asc(appointments.scheduledDate), asc(appointments.startTime));
}
