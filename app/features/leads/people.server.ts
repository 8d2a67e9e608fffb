import { and, asc, count, desc, eq, ilike, isNull, ne, or, sql } from "drizzle-orm";
import { cityOfZip } from "~/content/zip-cities";
import { db, type DbOrTx, type Tx } from "~/db/client.server";
import {
  appointments,
  introCalls,
  leadEntries,
  memberships,
  profiles,
  leads,
  user,
} from "~/db/schema";
import { LEAD_STATUSES, type LeadStatus } from "~/db/lead-status";
import { CITY_PAGES } from "~/content/cities";
import type { CityPath } from "~/content/city-paths";
import { personName } from "~/lib/names";

/*
 * The people behind the leads (ADR 060): one row per e-mail address in `leads`, each form
 * post and intro call an entry pointing at it. Staff work the row from the 'Leads' tab: status,
 * notes, owner; it is linked to the customer's account when there is one.
 */

export type EntryInput = {
  email: string;
  name: string;
  phone?: string | null;
  zipCode?: string | null;
  pageUrl?: string | null;
  /** "home", a city page's path, or "intro-call". */
  source: string;
  at: Date;
};

/** The city a lead's page names, for a city page's lead. */
export function cityOfSource(source: string): string | null {
  return (
    (CITY_PAGES as Record<string, { city: string } | undefined>)[source as CityPath]?.city ?? null
  );
}

/** The customer (not staff) whose account has this e-mail address, if any. */
export async function customerWithEmail(database: DbOrTx, email: string) {
  const [row] = await database
    .select({ id: user.id })
    .from(user)
    .innerJoin(profiles, eq(profiles.userId, user.id))
    .where(and(sql`lower(${user.email}) = ${email.toLowerCase()}`, eq(profiles.isEmployee, false)))
    .limit(1);
  return row?.id ?? null;
}

/**
 * The person's lead for this entry: created at their first entry, updated by the next ones
 * (the same e-mail posted twice is one lead with two entries), and attached to the customer
 * whose account has the e-mail. Runs in the entry's own transaction.
 */
export async function leadForEntry(tx: Tx, input: EntryInput): Promise<string> {
  const email = input.email.toLowerCase();
  const customerId = await customerWithEmail(tx, email);
  const [row] = await tx
    .insert(leads)
    .values({
      email,
      name: input.name,
      phone: input.phone ?? null,
      zipCode: input.zipCode ?? null,
      city: cityOfSource(input.source) ?? cityOfZip(input.zipCode),
      pageUrl: input.pageUrl ?? null,
      source: input.source,
      customerId,
      lastEntryAt: input.at,
      createdAt: input.at,
    })
    .onConflictDoUpdate({
      target: leads.email,
      set: {
        name: input.name,
        phone: sql`coalesce(excluded.phone, ${leads.phone})`,
        zipCode: sql`coalesce(excluded.zip_code, ${leads.zipCode})`,
        city: sql`coalesce(excluded.city, ${leads.city})`,
        customerId: sql`coalesce(${leads.customerId}, excluded.customer_id)`,
        lastEntryAt: sql`greatest(${leads.lastEntryAt}, excluded.last_entry_at)`,
      },
    })
    .returning({ id: leads.id });
  return row.id;
}

/**
 * Links every lead with the address to the account, once its e-mail is confirmed (ADR 060):
 * called by the accounts' user hook. Returns how many leads were linked.
 */
export async function linkLeadsToAccount(userId: string, email: string, database: DbOrTx = db()) {
  const linked = await database
    .update(leads)
    .set({ customerId: userId })
    .where(and(eq(leads.email, email.toLowerCase()), isNull(leads.customerId)))
    .returning({ id: leads.id });
  return linked.length;
}

/**
 * A membership started for the customer: their leads read 'Member' (issue 29 item 4). Called
 * from the memberships module in the membership's own transaction.
 */
export async function leadBecameMember(tx: DbOrTx, customerId: string, at = new Date()) {
  await tx
    .update(leads)
    .set({
      status: "member",
      lostReason: null,
      memberSince: sql`coalesce(${leads.memberSince}, ${at})`,
    })
    .where(eq(leads.customerId, customerId));
}

/** A walk-thru was booked for the lead: it reads 'Walk-thru booked' unless already a member. */
export async function leadWalkThruBooked(tx: DbOrTx, leadId: string) {
  await tx
    .update(leads)
    .set({ status: "walk_thru_booked", lostReason: null })
    .where(and(eq(leads.id, leadId), ne(leads.status, "member")));
}

/**
 * A walk-thru of the lead was canceled: 'Walk-thru booked' goes back to 'Contacted' unless
 * another walk-thru of theirs is still booked (a lead that became a member stays one).
 */
export async function leadWalkThruCanceled(tx: DbOrTx, leadId: string) {
  await tx
    .update(leads)
    .set({ status: "contacted" })
    .where(
      and(
        eq(leads.id, leadId),
        eq(leads.status, "walk_thru_booked"),
        sql`not exists (select 1 from ${appointments} where ${appointments.leadId} = ${leadId} and ${appointments.kind} = 'walk_thru' and ${appointments.status} in ('booked', 'on_the_way'))`,
      ),
    );
}

/** The membership offer went out to the customer (issue 27's 'Send membership offer'). */
export async function leadOfferSent(tx: DbOrTx, customerId: string, at = new Date()) {
  await tx
    .update(leads)
    .set({ offerSentAt: sql`coalesce(${leads.offerSentAt}, ${at})` })
    .where(eq(leads.customerId, customerId));
}

/* ---------- the Leads tab ---------- */

export const LEADS_PAGE_SIZE = 25;

export type LeadsQuery = { status: LeadStatus | null; search: string; page: number };

export function parseLeadsQuery(params: URLSearchParams): LeadsQuery {
  const status = params.get("lstatus");
  const page = Number(params.get("lpage") ?? "1");
  return {
    status: (LEAD_STATUSES as readonly string[]).includes(status ?? "")
      ? (status as LeadStatus)
      : null,
    search: (params.get("lq") ?? "").trim().slice(0, 100),
    page: Number.isInteger(page) && page > 0 && page < 10_000 ? page : 1,
  };
}

function searchCondition(search: string) {
  if (!search) return undefined;
  const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return or(
    ilike(leads.name, like),
    ilike(leads.email, like),
    ilike(leads.phone, like),
    ilike(leads.zipCode, like),
    ilike(leads.city, like),
  );
}

export type LeadListItem = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  zipCode: string | null;
  city: string | null;
  pageUrl: string | null;
  source: string;
  status: LeadStatus;
  lostReason: string | null;
  notes: string | null;
  owner: string | null;
  lastEntryAt: string;
  entries: number;
  customerId: string | null;
};

const ownerProfile = sql`(select trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')) from profiles p where p.user_id = "leads"."owner_id")`;

export async function listLeads(query: LeadsQuery) {
  const where = and(
    query.status ? eq(leads.status, query.status) : undefined,
    searchCondition(query.search),
  );
  const [rows, [{ total }], byStatus] = await Promise.all([
    db()
      .select({
        id: leads.id,
        name: leads.name,
        email: leads.email,
        phone: leads.phone,
        zipCode: leads.zipCode,
        city: leads.city,
        pageUrl: leads.pageUrl,
        source: leads.source,
        status: leads.status,
        lostReason: leads.lostReason,
        notes: leads.notes,
        owner: sql<string | null>`${ownerProfile}`,
        lastEntryAt: leads.lastEntryAt,
        customerId: leads.customerId,
        entries:
          sql<number>`(select count(*) from lead_entries l where l.lead_id = "leads"."id") + (select count(*) from intro_calls c where c.lead_id = "leads"."id")`.mapWith(
            Number,
          ),
      })
      .from(leads)
      .where(where)
      .orderBy(desc(leads.lastEntryAt), asc(leads.id))
      .limit(LEADS_PAGE_SIZE)
      .offset((query.page - 1) * LEADS_PAGE_SIZE),
    db().select({ total: count() }).from(leads).where(where),
    db().select({ status: leads.status, n: count() }).from(leads).groupBy(leads.status),
  ]);
  const counts = Object.fromEntries(LEAD_STATUSES.map((s) => [s, 0])) as Record<LeadStatus, number>;
  for (const row of byStatus) counts[row.status] = row.n;
  return {
    leads: rows.map((r) => ({ ...r, lastEntryAt: r.lastEntryAt.toISOString() })) as LeadListItem[],
    total,
    counts,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / LEADS_PAGE_SIZE)),
    status: query.status,
    search: query.search,
  };
}

/* ---------- one lead ---------- */

export type LeadEntry = {
  kind: "form" | "intro-call";
  at: string;
  pageUrl: string | null;
  source: string;
  message: string | null;
  /** An intro call's time. */
  startsAt: string | null;
};

export async function leadDetail(leadId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(leadId)) return null;
  const [lead] = await db()
    .select({
      id: leads.id,
      name: leads.name,
      email: leads.email,
      phone: leads.phone,
      zipCode: leads.zipCode,
      city: leads.city,
      pageUrl: leads.pageUrl,
      source: leads.source,
      status: leads.status,
      lostReason: leads.lostReason,
      notes: leads.notes,
      ownerId: leads.ownerId,
      customerId: leads.customerId,
      invitedAt: leads.invitedAt,
      offerSentAt: leads.offerSentAt,
      createdAt: leads.createdAt,
    })
    .from(leads)
    .where(eq(leads.id, leadId));
  if (!lead) return null;
  const [forms, calls, walkThrus, staff] = await Promise.all([
    db()
      .select({
        at: leadEntries.createdAt,
        pageUrl: leadEntries.pageUrl,
        source: leadEntries.source,
        message: leadEntries.message,
      })
      .from(leadEntries)
      .where(eq(leadEntries.leadId, leadId)),
    db()
      .select({ at: introCalls.createdAt, startsAt: introCalls.startsAt })
      .from(introCalls)
      .where(eq(introCalls.leadId, leadId)),
    db()
      .select({
        id: appointments.id,
        date: appointments.scheduledDate,
        startTime: appointments.startTime,
        endTime: appointments.endTime,
        status: appointments.status,
        address: appointments.address,
        handymanFirst: profiles.firstName,
        handymanLast: profiles.lastName,
      })
      .from(appointments)
      .leftJoin(profiles, eq(profiles.userId, appointments.assignedEmployeeId))
      .where(and(eq(appointments.kind, "walk_thru"), eq(appointments.leadId, leadId)))
      .orderBy(desc(appointments.scheduledDate), desc(appointments.startTime)),
    staffMembers(),
  ]);
  const entries: LeadEntry[] = [
    ...forms.map((f) => ({
      kind: "form" as const,
      at: f.at.toISOString(),
      pageUrl: f.pageUrl,
      source: f.source,
      message: f.message,
      startsAt: null,
    })),
    ...calls.map((c) => ({
      kind: "intro-call" as const,
      at: c.at.toISOString(),
      pageUrl: null,
      source: "intro-call",
      message: null,
      startsAt: c.startsAt.toISOString(),
    })),
  ].sort((a, b) => b.at.localeCompare(a.at));
  const member = lead.customerId
    ? await db()
        .select({ id: memberships.id })
        .from(memberships)
        .where(and(eq(memberships.customerId, lead.customerId), eq(memberships.status, "active")))
        .limit(1)
    : [];
  return {
    ...lead,
    invitedAt: lead.invitedAt?.toISOString() ?? null,
    offerSentAt: lead.offerSentAt?.toISOString() ?? null,
    createdAt: lead.createdAt.toISOString(),
    entries,
    walkThrus: walkThrus.map((w) => ({
      id: w.id,
      date: w.date,
      startTime: w.startTime.slice(0, 5),
      endTime: w.endTime.slice(0, 5),
      status: w.status,
      address: w.address,
      handyman: personName(w.handymanFirst, w.handymanLast),
    })),
    isMember: member.length > 0,
    staff,
  };
}

export type LeadDetail = NonNullable<Awaited<ReturnType<typeof leadDetail>>>;

export async function staffMembers() {
  const rows = await db()
    .select({ id: profiles.userId, firstName: profiles.firstName, lastName: profiles.lastName })
    .from(profiles)
    .where(eq(profiles.isEmployee, true))
    .orderBy(asc(profiles.firstName), asc(profiles.lastName));
  return rows.map((r) => ({
    id: r.id,
    name: personName(r.firstName, r.lastName) || "Staff",
  }));
}

export class LeadRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LeadRejectedError";
  }
}

/**
 * Staff's change to a lead: status (a 'Lost' needs its reason), notes and owner. 'Walk-thru
 * booked' and 'Member' are set by what happens (a walk-thru booked, a membership started), so
 * staff choose among 'New', 'Contacted' and 'Lost' only.
 */
export async function updateLead(
  leadId: string,
  change: {
    status: LeadStatus;
    lostReason: string | null;
    notes: string | null;
    ownerId: string | null;
    /** The status is the one the lead has: only notes and owner change. */
    keep?: boolean;
  },
) {
  if (change.status === "lost" && !change.lostReason)
    throw new LeadRejectedError("Please give the reason the lead was lost.");
  if (change.ownerId) {
    const staff = await staffMembers();
    if (!staff.some((s) => s.id === change.ownerId))
      throw new LeadRejectedError("Please choose a staff member as the owner.");
  }
  const [row] = await db()
    .update(leads)
    .set({
      ...(change.keep && change.status !== "lost"
        ? {}
        : {
            status: change.status,
            lostReason: change.status === "lost" ? change.lostReason : null,
          }),
      notes: change.notes,
      ownerId: change.ownerId,
    })
    .where(eq(leads.id, leadId))
    .returning({ id: leads.id });
  if (!row) throw new LeadRejectedError("Lead not found.");
}

/** The lead of a customer, made from their account when they have none (staff book from it). */
export async function leadOfCustomer(customerId: string, now = new Date()) {
  return db().transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: leads.id })
      .from(leads)
      .where(eq(leads.customerId, customerId))
      .orderBy(asc(leads.createdAt))
      .limit(1);
    if (existing) return existing.id;
    const [person] = await tx
      .select({ email: user.email, name: user.name, isEmployee: profiles.isEmployee })
      .from(user)
      .leftJoin(profiles, eq(profiles.userId, user.id))
      .where(eq(user.id, customerId));
    if (!person || person.isEmployee) return null;
    return leadForEntry(tx, {
      email: person.email,
      name: person.name,
      source: "account",
      at: now,
    });
  });
}

/** Where a customer came from, for their staff page: the lead, its entries and walk-thrus. */
export async function customerOrigin(customerId: string) {
  const [row] = await db()
    .select({ id: leads.id })
    .from(leads)
    .where(eq(leads.customerId, customerId))
    .orderBy(asc(leads.createdAt))
    .limit(1);
  return row ? leadDetail(row.id) : null;
}
