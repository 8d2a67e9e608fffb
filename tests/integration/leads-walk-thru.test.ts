import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appointments, introCalls, leadEntries, outbox, leads } from "~/db/schema";
import type { OutboxPayloads } from "~/lib/outbox.server";
import { submitCityLead, submitHomeLead } from "~/features/leads/submit.server";
import {
  LeadRejectedError,
  linkLeadsToAccount,
  listLeads,
  updateLead,
} from "~/features/leads/people.server";
import { inviteLead } from "~/features/leads/invite.server";
import { leadFunnel } from "~/features/leads/funnel.server";
import { bookIntroCall } from "~/features/intro-calls/booking.server";
import { offeredSlots } from "~/features/intro-calls/slots";
import { startMembership } from "~/features/memberships/start.server";
import {
  bookWalkThru,
  cancelWalkThru,
  offerWalkThrus,
  WALK_THRU_NOT_FOUND_MESSAGE,
} from "~/features/visits/walk-thru.server";
import { findVisit, VisitRejectedError } from "~/features/visits/visits.server";
import { businessToday } from "~/lib/business-calendar";
import { createHome, createUser } from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * Issue 29: one lead per person with its entries, attached to the customer with the e-mail;
 * the walk-thru booked against the handymen's time like any visit, with its calendar e-mail;
 * the statuses, the invitation, 'Member' when a membership starts, and the funnel.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(
    sql`truncate "user", outbox, lead_entries, intro_calls, leads, rate_limits cascade`,
  );
});

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
}
let address = 0;
const context = () => ({
  clientAddress: `198.51.100.${++address % 250}`,
  pageUrl: "http://localhost/?utm_source=test",
});

async function mails() {
  const rows = await database.db.select().from(outbox).where(eq(outbox.kind, "email"));
  return rows.map((r) => r.payload as OutboxPayloads["email"]);
}

/** A Monday morning far from the real clock: the walk-thru window starts the next business day. */
const now = new Date("2030-03-04T14:00:00Z");

describe("one person, one lead", () => {
  it("the same e-mail posted twice is one lead with two entries, and its intro call a third", async () => {
    await submitHomeLead(
      form({ name: "Ana Lopez", zipCode: "30305", email: "Ana@Example.com" }),
      context(),
    );
    await submitCityLead(
      form({ name: "Ana Lopez", phone: "404 555 0100", email: "ana@example.com" }),
      { ...context(), source: "decatur-handyman" },
    );
    const slot = offeredSlots(new Date("2026-11-24T14:00:00Z"))[1].slots[4];
    const call = await bookIntroCall(
      form({
        name: "Ana Lopez",
        email: "ana@example.com",
        phone: "404 555 0100",
        startsAt: slot.toISOString(),
      }),
      { clientAddress: "198.51.100.251", now: new Date("2026-11-24T14:00:00Z") },
    );
    expect(call.ok).toBe(true);
    const people = await database.db.select().from(leads);
    expect(people).toHaveLength(1);
    expect(people[0]).toMatchObject({
      email: "ana@example.com",
      zipCode: "30305",
      city: "Decatur",
      phone: "404 555 0100",
      source: "home",
      status: "new",
    });
    const entries = await database.db
      .select()
      .from(leadEntries)
      .where(eq(leadEntries.leadId, people[0].id));
    expect(entries).toHaveLength(2);
    const calls = await database.db
      .select()
      .from(introCalls)
      .where(eq(introCalls.leadId, people[0].id));
    expect(calls).toHaveLength(1);
    // The webhook keeps its calls: one per post.
    const hooks = await database.db.select().from(outbox).where(eq(outbox.kind, "lead_webhook"));
    expect(hooks).toHaveLength(2);

    const list = await listLeads({ status: null, search: "", page: 1 });
    expect(list.total).toBe(1);
    expect(list.leads[0]).toMatchObject({ name: "Ana Lopez", entries: 3, status: "new" });
    expect(list.counts).toMatchObject({ new: 1, contacted: 0, lost: 0 });
    expect((await listLeads({ status: "lost", search: "", page: 1 })).total).toBe(0);
    expect((await listLeads({ status: null, search: "decatur", page: 1 })).total).toBe(1);
    expect((await listLeads({ status: null, search: "nobody", page: 1 })).total).toBe(0);
  });

  it("a lead with a customer's e-mail is attached to that customer", async () => {
    const customer = await createUser(database.db, {
      email: "james@example.com",
      password: "x",
      firstName: "James",
      lastName: "Hill",
    });
    await submitHomeLead(
      form({ name: "James Hill", zipCode: "30030", email: "JAMES@example.com" }),
      context(),
    );
    const [person] = await database.db.select().from(leads);
    expect(person.customerId).toBe(customer.id);
  });

  it("'Lost' needs its reason; staff's status, notes and owner are kept", async () => {
    const staff = await createUser(database.db, {
      email: "office@example.com",
      password: "x",
      firstName: "Olivia",
      lastName: "Office",
      isEmployee: true,
    });
    await submitHomeLead(
      form({ name: "Lee Park", zipCode: "30305", email: "lee@example.com" }),
      context(),
    );
    const [person] = await database.db.select().from(leads);
    await expect(
      updateLead(person.id, { status: "lost", lostReason: null, notes: null, ownerId: null }),
    ).rejects.toThrow(LeadRejectedError);
    await expect(
      updateLead(person.id, { status: "new", lostReason: null, notes: null, ownerId: "someone" }),
    ).rejects.toThrow("Please choose a staff member as the owner.");
    await updateLead(person.id, {
      status: "lost",
      lostReason: "Moved out of the area",
      notes: "Called twice",
      ownerId: staff.id,
    });
    const [after] = await database.db.select().from(leads);
    expect(after).toMatchObject({
      status: "lost",
      lostReason: "Moved out of the area",
      notes: "Called twice",
      ownerId: staff.id,
    });
    // The database refuses a 'Lost' without reason too.
    await expect(
      database.db.execute(sql`update leads set lost_reason = null where id = ${person.id}`),
    ).rejects.toThrow();
  });
});

describe("the walk-thru", () => {
  it("is offered against the handyman's visits, booked for a lead with its calendar e-mail, and never double-booked", async () => {
    const handyman = await createUser(database.db, {
      email: "dana@example.com",
      password: "x",
      firstName: "Dana",
      lastName: "Reyes",
      isEmployee: true,
    });
    await submitHomeLead(
      form({ name: "Rosa Diaz", zipCode: "30305", email: "rosa@example.com" }),
      context(),
    );
    const [person] = await database.db.select().from(leads);
    const days = await offerWalkThrus({ now });
    const day = days[0];
    // One business day ahead (9:00 on Tuesday), every 30 minutes.
    expect(day.date).toBe("2030-03-05");
    expect(day.slots[0]).toMatchObject({ startMinute: 540 });
    expect(day.slots[0].handymen.map((h) => h.id)).toEqual([handyman.id]);

    const booked = await bookWalkThru(
      {
        date: day.date,
        startMinute: 540,
        name: "Rosa Diaz",
        address: "12 Elm St, Atlanta, GA 30305",
        employeeId: undefined,
        leadId: person.id,
        customerId: null,
        email: "rosa@example.com",
      },
      { id: handyman.id, isEmployee: true },
      { now },
    );
    expect(booked).toMatchObject({
      kind: "walk_thru",
      startTime: "09:00:00",
      endTime: "09:45:00",
      customerId: null,
      homeId: null,
      assignedEmployeeId: handyman.id,
      status: "booked",
    });
    const [lead] = await database.db.select().from(leads);
    expect(lead.status).toBe("walk_thru_booked");
    // Past the home page form's acknowledgement, the walk-thru's e-mail.
    const mail = (await mails()).find(
      (m) => m.to === "rosa@example.com" && /walk-thru is booked/.test(m.subject),
    );
    expect(mail?.subject).toContain("Your free walk-thru is booked");
    expect(mail?.attachments?.[0].content).toContain("SUMMARY:Free walk-thru");
    expect(mail?.attachments?.[0].content).toContain("12 Elm St");

    // 9:00 is taken now; 9:30 overlaps it; 10:00 is free again.
    const after = (await offerWalkThrus({ now, onlyDate: day.date }))[0];
    const starts = after.slots.map((s) => s.startMinute);
    expect(starts).not.toContain(540);
    expect(starts).not.toContain(570);
    expect(starts).toContain(600);
    await expect(
      bookWalkThru(
        {
          date: day.date,
          startMinute: 570,
          name: "Someone Else",
          address: "1 Main St",
          employeeId: undefined,
          leadId: person.id,
          customerId: null,
          email: "else@example.com",
        },
        { id: handyman.id, isEmployee: true },
        { now },
      ),
    ).rejects.toThrow(VisitRejectedError);
    // The database's own constraint holds a walk-thru like any visit.
    await expect(
      database.db.insert(appointments).values({
        kind: "walk_thru",
        leadId: person.id,
        contactName: "Raced",
        address: "2 Main St",
        assignedEmployeeId: handyman.id,
        scheduledDate: day.date,
        startTime: "09:15",
        endTime: "10:00",
      }),
    ).rejects.toThrow();
    // A member's visit must have its customer and home; a walk-thru its person and address.
    await expect(
      database.db.insert(appointments).values({
        assignedEmployeeId: handyman.id,
        scheduledDate: "2030-03-06",
        startTime: "08:00",
        endTime: "09:00",
      }),
    ).rejects.toThrow();
    // Not a member's visit: the visit page and its hours never see it.
    expect(await findVisit({ id: handyman.id, isEmployee: true }, booked.id)).toBeUndefined();
    // Closed days and time off: a Sunday is never offered.
    expect((await offerWalkThrus({ now, onlyDate: "2030-03-10" })).length).toBe(0);
  });

  it("staff cancel a lead's walk-thru: canceled once, the person e-mailed with the calendar's cancellation", async () => {
    const handyman = await createUser(database.db, {
      email: "lee@example.com",
      password: "x",
      firstName: "Lee",
      lastName: "Park",
      isEmployee: true,
      staffRole: "handyman",
    });
    await submitHomeLead(
      form({ name: "Ana Ruiz", zipCode: "30305", email: "ana@example.com" }),
      context(),
    );
    const [person] = await database.db.select().from(leads);
    const staff = { id: handyman.id, isEmployee: true };
    const booked = await bookWalkThru(
      {
        date: "2030-03-05",
        startMinute: 600,
        name: "Ana Ruiz",
        address: "3 Oak St, Atlanta, GA 30305",
        employeeId: handyman.id,
        leadId: person.id,
        customerId: null,
        email: "ana@example.com",
      },
      staff,
      { now },
    );
    // Another lead's page cannot cancel it, nor can a customer.
    await expect(
      cancelWalkThru(staff, { leadId: crypto.randomUUID(), appointmentId: booked.id }),
    ).rejects.toThrow(WALK_THRU_NOT_FOUND_MESSAGE);
    await expect(
      cancelWalkThru(
        { id: "someone", isEmployee: false },
        { leadId: person.id, appointmentId: booked.id },
      ),
    ).rejects.toThrow(VisitRejectedError);
    const canceled = await cancelWalkThru(staff, { leadId: person.id, appointmentId: booked.id });
    expect(canceled.when).toBe("Tuesday, March 5, 2030, 10:00 AM to 10:45 AM");
    const [row] = await database.db.select().from(appointments);
    expect(row.status).toBe("canceled");
    // No walk-thru booked any more: the lead is 'Contacted' again.
    expect((await database.db.select().from(leads))[0].status).toBe("contacted");
    const mail = (await mails()).find((m) => /is canceled/.test(m.subject));
    expect(mail?.to).toBe("ana@example.com");
    expect(mail?.attachments?.[0].content).toContain("METHOD:CANCEL");
    // Canceled already: a second post is refused and sends nothing more.
    await expect(
      cancelWalkThru(staff, { leadId: person.id, appointmentId: booked.id }),
    ).rejects.toThrow(VisitRejectedError);
    expect((await mails()).filter((m) => /is canceled/.test(m.subject))).toHaveLength(1);
    // The time is free again.
    const day = (await offerWalkThrus({ now, onlyDate: "2030-03-05" }))[0];
    expect(day.slots.map((s) => s.startMinute)).toContain(600);
  });
});

describe("invite, link, member, funnel", () => {
  it("invites with a filled-in sign-up link, links once confirmed, reads 'Member' once the membership starts", async () => {
    const staff = await createUser(database.db, {
      email: "office2@example.com",
      password: "x",
      firstName: "Olivia",
      lastName: "Office",
      isEmployee: true,
    });
    await submitHomeLead(
      form({ name: "Kim Nguyen Tran", zipCode: "30305", email: "kim@example.com" }),
      context(),
    );
    const [person] = await database.db.select().from(leads);
    const invited = await inviteLead(person.id, now);
    expect(invited).toEqual({ email: "kim@example.com", linked: false });
    const mail = (await mails()).find(
      (m) => m.to === "kim@example.com" && /^Create your/.test(m.subject),
    );
    expect(mail?.subject).toContain("Create your");
    const link = new URL(mail!.text.match(/https?:\/\/\S+\/auth\?\S+/)![0]);
    expect(Object.fromEntries(link.searchParams)).toEqual({
      mode: "sign-up",
      firstName: "Kim",
      lastName: "Nguyen Tran",
      email: "kim@example.com",
    });

    const account = await createUser(database.db, {
      email: "kim@example.com",
      password: "x",
      firstName: "Kim",
      lastName: "Nguyen Tran",
    });
    expect(await linkLeadsToAccount(account.id, "KIM@example.com")).toBe(1);
    await expect(inviteLead(person.id, now)).rejects.toThrow("already has an account");
    await createHome(database.db, account.id);

    const today = businessToday();
    await startMembership(
      { customerId: account.id, plan: "essential", billing: "monthly", startDate: today },
      staff.id,
    );
    const [member] = await database.db
      .select()
      .from(leads)
      .where(and(eq(leads.id, person.id)));
    expect(member.status).toBe("member");
    expect(member.memberSince).not.toBeNull();

    const funnel = await leadFunnel(new Date());
    expect(funnel).toHaveLength(12);
    const thisMonth = funnel[funnel.length - 1];
    expect(thisMonth).toMatchObject({ leads: 1, introCalls: 0, walkThrus: 0, newMembers: 1 });
    expect(funnel.slice(0, 11).every((m) => m.leads === 0)).toBe(true);
  });
});
