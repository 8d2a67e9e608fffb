import fs from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  appointments,
  appointmentTasks,
  employeeTimeOff,
  outbox,
  leads,
  requestPhotos,
  serviceRequests,
} from "~/db/schema";
import { createAppointment } from "~/features/visits/staff-booking.server";
import {
  listEmployeeAppointments,
  listUpcomingAppointments,
  nextWalkThruOf,
} from "~/features/visits/visit-lists.server";
import { customerAppointmentOptions, listCustomers } from "~/features/customers/queries.server";
import { linkLeadsToAccount } from "~/features/leads/people.server";
import {
  consentReplyText,
  officeAlertText,
  onMyWayText,
  paymentFailedText,
  reminderText,
  textCodeText,
  visitChangeText,
} from "~/features/notifications/index.server";
import { listCustomerRequestPages } from "~/features/service-requests/service-requests.server";
import { listRequests } from "~/features/service-requests/staff-queries.server";
import {
  addPartToOwnVisit,
  CONFIRM_WORKED_MESSAGE,
  finishOwnVisit,
  suggestedMinutes,
} from "~/features/visits/today.server";
import { onVisitLabel } from "~/features/visits/visit-state";
import { visitReport } from "~/features/visits/visit-report.server";
import { bookWalkThru, walkThruOffer } from "~/features/visits/walk-thru.server";
import {
  bookVisit,
  REQUEST_BOOKED_MESSAGE,
  textWhen,
  VisitRejectedError,
} from "~/features/visits/visits.server";
import { newActionKey } from "~/lib/action-keys.server";
import { addDays, zonedInstant } from "~/lib/business-calendar";
import { business } from "~/lib/business.server";
import type { OutboxPayloads } from "~/lib/outbox.server";
import { fitsOneSegment, gsm7Length } from "~/lib/text-segment";
import { saveTextConsent } from "~/lib/texts.server";
import {
  createAppointment as createAppointmentRow,
  createHome,
  createMembership,
  createServiceRequest,
  createUser,
} from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * Issue 40 items 2, 3, 4, 6 and 9 on both databases: no task is ever lost, only what can be
 * booked is offered, a walk-thru belongs to the person, the time worked is confirmed, and a
 * staff-booked visit texts like a self-booked one, every text in one segment.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox, action_keys, leads cascade`);
});

// Tuesday 1 December 2026 (the visit's day) and Thursday 3 December; "now" is before both.
const DAY = "2026-12-01";
const LATER_DAY = "2026-12-03";
const on = (date: string, time: string) => new Date(`${date}T${time}:00-05:00`);
const BEFORE = on("2026-11-27", "10:00");

let n = 0;
async function world() {
  n++;
  const dana = await createUser(database.db, {
    email: `dana${n}@example.com`,
    password: "x",
    firstName: "Dana",
    lastName: "Whitfield",
    isEmployee: true,
    staffRole: "handyman",
  });
  const office = await createUser(database.db, {
    email: `sam${n}@example.com`,
    password: "x",
    firstName: "Sam",
    lastName: "Office",
    isEmployee: true,
  });
  const member = await createUser(database.db, {
    email: `maria${n}@example.com`,
    password: "x",
    firstName: "Maria",
    lastName: "Alvarez",
  });
  const home = await createHome(database.db, member.id);
  await createMembership(database.db, member.id, {
    plan: "complete",
    billing: "annual",
    startDate: "2026-11-20",
    staffId: office.id,
    today: "2026-11-20",
  });
  const gate = await createServiceRequest(database.db, home, {
    title: "Fix the gate",
    status: "reviewed",
    priority: "next",
  });
  return { dana, office, member, home, gate };
}

/** Staff's Create Appointment: the member's "Fix the gate" and a typed "Caulk the tub". */
async function staffBooked(w: Awaited<ReturnType<typeof world>>) {
  const visit = await createAppointment(
    {
      customerId: w.member.id,
      homeId: w.home.id,
      assignedEmployeeId: w.dana.id,
      scheduledDate: DAY,
      startTime: "09:00",
      endTime: "10:45",
      tasks: [
        { description: "Fix the gate", serviceRequestId: w.gate.id },
        { description: "Caulk the tub" },
      ],
    },
    w.office.id,
  );
  const tasks = await database.db
    .select()
    .from(appointmentTasks)
    .where(eq(appointmentTasks.appointmentId, visit.id));
  const task = (d: string) => tasks.find((t) => t.taskDescription === d)!;
  return { visit, gateTask: task("Fix the gate"), tubTask: task("Caulk the tub") };
}

async function requestOf(id: string) {
  const [row] = await database.db.select().from(serviceRequests).where(eq(serviceRequests.id, id));
  return row;
}

describe(`no task is ever lost (${testDatabaseKind()})`, () => {
  it("a typed task is a request; 'Not done' puts it back on the lists, 'Done' on Completed, and the visit page tells all", async () => {
    const w = await world();
    const { visit, gateTask, tubTask } = await staffBooked(w);
    expect(tubTask.serviceRequestId).not.toBeNull();
    const tubId = tubTask.serviceRequestId!;
    expect(await requestOf(tubId)).toMatchObject({
      customerId: w.member.id,
      title: "Caulk the tub",
      status: "scheduled",
    });

    // The handyman's before and after photos, and a part.
    await database.db.insert(requestPhotos).values([
      {
        requestId: w.gate.id,
        filePath: "x/before.jpg",
        fileName: "before.jpg",
        fileSize: 1,
        contentType: "image/jpeg",
        beforeVisitId: visit.id,
      },
      {
        requestId: w.gate.id,
        filePath: "x/after.jpg",
        fileName: "after.jpg",
        fileSize: 1,
        contentType: "image/jpeg",
        afterVisitId: visit.id,
      },
    ]);
    await addPartToOwnVisit(w.dana, {
      appointmentId: visit.id,
      description: "Hinge",
      costCents: 1250,
      key: newActionKey(),
    });

    const finished = await finishOwnVisit(
      w.dana,
      {
        appointmentId: visit.id,
        minutesWorked: 75,
        outcomes: { [gateTask.id]: "done", [tubTask.id]: "not_done" },
        key: newActionKey(),
        confirmed: true,
      },
      { now: on(DAY, "10:30") },
    );
    expect(finished.applied).toBe(true);

    // Not done: back on the member's Next list and in staff's All Requests, as 'reviewed'.
    expect((await requestOf(tubId)).status).toBe("reviewed");
    const lists = await listCustomerRequestPages(w.member.id, { next: 1, later: 1, completed: 1 });
    expect(lists.next.items.map((r) => r.title)).toContain("Caulk the tub");
    expect(lists.completed.items.map((r) => r.title)).toEqual(["Fix the gate"]);
    expect(lists.completed.items[0].photos).toHaveLength(2);
    const all = await listRequests({ status: "reviewed" });
    expect(all.rows.map((r) => r.id)).toContain(tubId);
    // Offered again for the next visit (its visit ended).
    const options = await customerAppointmentOptions(w.member.id);
    expect(options?.openRequests.find((r) => r.id === tubId)?.onVisitDate).toBeNull();

    const report = await visitReport(visit.id);
    expect(report.minutesWorked).toBe(75);
    expect(report.tasks.map((t) => [t.description, t.outcome]).sort()).toEqual([
      ["Caulk the tub", "not_done"],
      ["Fix the gate", "done"],
    ]);
    const gatePhotos = report.tasks.find((t) => t.description === "Fix the gate")!.photos;
    expect(gatePhotos.map((p) => p.taken).sort()).toEqual(["after", "before"]);
    expect(report.parts).toMatchObject([{ description: "Hinge", costCents: 1250 }]);
  });
});

describe(`only what can be booked is offered (${testDatabaseKind()})`, () => {
  it("a task on another upcoming visit is shown with its day and refused if forged", async () => {
    const w = await world();
    await staffBooked(w);
    const options = await customerAppointmentOptions(w.member.id);
    expect(options?.openRequests.find((r) => r.id === w.gate.id)?.onVisitDate).toBe(DAY);
    expect(onVisitLabel(DAY)).toBe("on your visit of December 1");
    expect(onVisitLabel("2026-12-02")).toBe("on your visit of December 2");
    const error = await bookVisit(
      w.member.id,
      { block: 105, date: LATER_DAY, startMinute: 13 * 60, requestIds: [w.gate.id] },
      { now: BEFORE },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VisitRejectedError);
    expect((error as Error).message).toBe(REQUEST_BOOKED_MESSAGE);
    // Staff's Create Appointment is refused the same way.
    await expect(
      createAppointment(
        {
          customerId: w.member.id,
          homeId: w.home.id,
          scheduledDate: LATER_DAY,
          startTime: "13:00",
          endTime: "14:45",
          tasks: [{ description: "Fix the gate", serviceRequestId: w.gate.id }],
        },
        w.office.id,
      ),
    ).rejects.toThrow(REQUEST_BOOKED_MESSAGE);
  });

  it("walk-thru times for a chosen handyman are only free ones: visits and time off left out", async () => {
    const w = await world();
    await staffBooked(w); // Dana: 9:00 to 10:45 on DAY
    await database.db
      .insert(employeeTimeOff)
      .values({ employeeId: w.dana.id, startDate: LATER_DAY, endDate: LATER_DAY });
    const offer = await walkThruOffer({
      customerId: null,
      date: DAY,
      now: BEFORE,
      handymanId: w.dana.id,
    });
    const starts = offer.day!.slots.map((s) => s.startMinute);
    expect(starts.length).toBeGreaterThan(0);
    // A 45-minute walk-thru overlapping 9:00-10:45 is never offered with Dana.
    expect(starts.filter((s) => s < 10 * 60 + 45 && s + 45 > 9 * 60)).toEqual([]);
    expect(offer.day!.slots.every((s) => s.handymen.every((h) => h.id === w.dana.id))).toBe(true);
    expect(offer.days.map((d) => d.date)).not.toContain(LATER_DAY);
    // The other employee is free then: without a choice the day is offered.
    const anyone = await walkThruOffer({ customerId: null, date: DAY, now: BEFORE });
    expect(anyone.days.map((d) => d.date)).toContain(LATER_DAY);
    expect(anyone.day!.slots.some((s) => s.startMinute === 9 * 60)).toBe(true);
  });
});

describe(`a walk-thru belongs to the person (${testDatabaseKind()})`, () => {
  async function lead(email: string, customerId: string | null = null) {
    const [row] = await database.db
      .insert(leads)
      .values({ email, name: "Priya Shah", source: "home", customerId })
      .returning();
    return row;
  }

  it("booked for a lead, it is hers once her account has the e-mail: Appointments, staff's tab, next appointment", async () => {
    const w = await world();
    const email = `priya${n}@example.com`;
    const priyaLead = await lead(email);
    const booked = await bookWalkThru(
      {
        date: DAY,
        startMinute: 13 * 60,
        name: "Priya Shah",
        address: "12 Elm St, Decatur, GA 30030",
        leadId: priyaLead.id,
        customerId: null,
        email,
        employeeId: w.dana.id,
      },
      { id: w.office.id, isEmployee: true },
      { now: BEFORE },
    );
    expect(booked.customerId).toBeNull();
    // Staff's Appointments tab shows it before she has an account.
    const staffTab = await listEmployeeAppointments({ when: "upcoming", today: "2026-11-27" });
    expect(staffTab.appointments.find((a) => a.id === booked.id)).toMatchObject({
      kind: "walk_thru",
      customerFirstName: "Priya Shah",
      address: "12 Elm St, Decatur, GA 30030",
    });

    const priya = await createUser(database.db, {
      email,
      password: "x",
      firstName: "Priya",
      lastName: "Shah",
    });
    // Her e-mail confirmed: the account's hook links her leads (and so her walk-thru).
    await linkLeadsToAccount(priya.id, email, database.db);
    const [row] = await database.db
      .select({ customerId: appointments.customerId })
      .from(appointments)
      .where(eq(appointments.id, booked.id));
    expect(row.customerId).toBe(priya.id);
    const mine = await listUpcomingAppointments(priya.id, "2026-11-27");
    expect(mine).toMatchObject([
      { id: booked.id, kind: "walk_thru", home: { address: "12 Elm St, Decatur, GA 30030" } },
    ]);
    // Her Membership tab reads only the walk-thru, the same one (ADR 102).
    expect(await nextWalkThruOf(priya.id, "2026-11-27")).toEqual({
      scheduledDate: mine[0]!.scheduledDate,
      startTime: mine[0]!.startTime,
    });
    expect(await nextWalkThruOf(priya.id, addDays(DAY, 1))).toBeNull();
    const { customers } = await listCustomers({ today: "2026-11-27" });
    expect(customers.find((c) => c.userId === priya.id)).toMatchObject({
      nextAppointmentDate: DAY,
      nextAppointmentStart: "13:00:00",
    });
  });

  it("booked for a lead that already has a customer, it is hers from the start", async () => {
    const w = await world();
    const priya = await createUser(database.db, {
      email: `priya-b${n}@example.com`,
      password: "x",
      firstName: "Priya",
      lastName: "Shah",
    });
    const priyaLead = await lead(priya.email, priya.id);
    const booked = await bookWalkThru(
      {
        date: DAY,
        startMinute: 14 * 60,
        name: "Priya Shah",
        address: "12 Elm St",
        leadId: priyaLead.id,
        customerId: null,
        email: priya.email,
        employeeId: undefined,
      },
      { id: w.office.id, isEmployee: true },
      { now: BEFORE },
    );
    const [row] = await database.db
      .select({ customerId: appointments.customerId })
      .from(appointments)
      .where(eq(appointments.id, booked.id));
    expect(row.customerId).toBe(priya.id);
  });
});

describe(`time worked is confirmed (${testDatabaseKind()})`, () => {
  it("starts from the visit's own clock, rounded, at most the block, and is refused unconfirmed", async () => {
    const started = on(DAY, "09:02").toISOString();
    expect(suggestedMinutes(started, 105, on(DAY, "10:10"))).toBe(75);
    expect(suggestedMinutes(started, 105, on(DAY, "13:00"))).toBe(105);
    expect(suggestedMinutes(started, 105, on(DAY, "09:04"))).toBe(15);
    const w = await world();
    const { visit, gateTask, tubTask } = await staffBooked(w);
    const unconfirmed = finishOwnVisit(
      w.dana,
      {
        appointmentId: visit.id,
        minutesWorked: 15,
        outcomes: { [gateTask.id]: "done", [tubTask.id]: "done" },
        key: newActionKey(),
        confirmed: false,
      },
      { now: on(DAY, "10:30") },
    );
    await expect(unconfirmed).rejects.toThrow(CONFIRM_WORKED_MESSAGE);
    const [row] = await database.db
      .select({ status: appointments.status })
      .from(appointments)
      .where(eq(appointments.id, visit.id));
    expect(row.status).toBe("booked");
  });
});

describe(`staff-booked visits text like self-booked ones (${testDatabaseKind()})`, () => {
  it("a member who takes texts gets the booking text and the reminder, the business named once", async () => {
    const w = await world();
    await saveTextConsent(database.db, w.member.id, {
      mobilePhone: "(404) 555-0181",
      consent: true,
      source: "profile",
    });
    // Booked on November 27 (the reminder is due a day before December 1): the machine's clock
    // is set to that afternoon for the booking, whatever today is (the moved-clock runs).
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(zonedInstant("2026-11-27", 14 * 60));
    const { visit } = await staffBooked(w).finally(() => vi.useRealTimers());
    const texts = await database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "sms"), eq(outbox.recipientId, w.member.id)));
    const bodies = texts.map((t) => (t.payload as OutboxPayloads["sms"]).body);
    expect(bodies).toHaveLength(2);
    const booked = bodies.find((b) => b.includes("booked"))!;
    expect(booked).toBe(
      visitChangeText(
        "booked",
        textWhen(visit),
        booked.slice(booked.lastIndexOf(" ") + 1), // the same link
      ),
    );
    expect(booked).toContain("Tue, Dec 1, 9:00 AM");
    for (const body of bodies) {
      expect(body.split(business().name)).toHaveLength(2);
      expect(fitsOneSegment(body)).toBe(true);
    }
    const emails = await database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "email"), eq(outbox.recipientId, w.member.id)));
    expect(emails.map((e) => (e.payload as OutboxPayloads["email"]).subject).sort()).toEqual([
      "Reminder: your visit tomorrow, Tuesday, December 1, 2026, 9:00 AM to 10:45 AM",
      "Your visit is booked: Tuesday, December 1, 2026, 9:00 AM to 10:45 AM",
    ]);
  });

  it("every text template's longest realistic rendering fits one segment and names the business once", () => {
    // The longest day and time a text shows ("Wed, Sep 30, 12:30 PM"), over a whole year.
    let when = "";
    for (let d = "2027-01-01"; d < "2028-01-01"; d = addDays(d, 1))
      for (const start of ["09:30:00", "12:30:00", "10:30:00"]) {
        const w = textWhen({ scheduledDate: d, startTime: start });
        if (w.length > when.length) when = w;
      }
    expect(when.length).toBeGreaterThanOrEqual("Wed, Sep 30, 12:30 PM".length);
    const site = "https://members.peachtree-handyman-club.example";
    const schedule = `${site}/dashboard?tab=schedule`;
    const staffLink = `${site}/employee/leads/0f8c1d2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f`;
    const longName = "Maria-Fernanda Alvarez-Gutierrez de la Cruz";
    const texts = [
      visitChangeText("booked", when, schedule),
      visitChangeText("moved", when, schedule),
      visitChangeText("canceled", when, schedule),
      reminderText(when, schedule),
      onMyWayText("Christopher Montgomery-Washington"),
      onMyWayText(`${longName} ${longName} ${longName}`),
      onMyWayText(null),
      paymentFailedText("Complete"),
      paymentFailedText("Essential"),
      officeAlertText(
        `Walk-thru booked: ${longName}, Wednesday, September 30, 2026, 12:30 PM to 1:15 PM`,
        staffLink,
      ),
      officeAlertText(`Card payment failed: ${longName}`, staffLink),
      officeAlertText(`${longName} canceled a visit`, staffLink),
      // A name outside GSM-7 (a curly quote, an accent) does not turn the text into UCS-2.
      onMyWayText("Zoë O\u2019Brien"),
      consentReplyText("help"),
      consentReplyText("stop"),
      consentReplyText("start"),
      textCodeText("123456", "sign-in"),
      textCodeText("123456", "verify"),
      // Two handymen (ADR 099): both names, shortened together, and the reminder says so.
      onMyWayText("Christopher Montgomery-Washington and Maria-Fernanda Alvarez-Gutierrez", true),
      reminderText(when, schedule, true),
    ];
    for (const text of texts) {
      expect(gsm7Length(text), text).not.toBeNull();
      expect(gsm7Length(text)!, text).toBeLessThanOrEqual(160);
      expect(text.split(business().name), text).toHaveLength(2);
      expect(text.startsWith(`${business().name}: `), text).toBe(true);
    }
    // The staff link is never cut: the subject is.
    expect(texts[9].endsWith(staffLink)).toBe(true);
    expect(onMyWayText("Dana Whitfield")).toBe(
      `${business().name}: Dana Whitfield is on the way to your home now.`,
    );
    expect(onMyWayText("Dana Whitfield and Sam Okafor", true)).toBe(
      `${business().name}: Dana Whitfield and Sam Okafor are on the way to your home now.`,
    );
  });
});

describe(`migration 0021 gives typed tasks their requests (${testDatabaseKind()})`, () => {
  it("an open visit's typed task becomes a scheduled request; a canceled visit's stays as it was", async () => {
    const w = await world();
    const open = await createAppointmentRow(database.db, w.home, {
      scheduledDate: DAY,
      startTime: "13:00",
      endTime: "14:00",
      tasks: ["Patch the drywall"],
    });
    const canceled = await createAppointmentRow(database.db, w.home, {
      scheduledDate: LATER_DAY,
      startTime: "13:00",
      endTime: "14:00",
      tasks: ["Old typed task"],
    });
    await database.db
      .update(appointments)
      .set({ status: "canceled" })
      .where(eq(appointments.id, canceled.id));
    // The migration's backfill statements, as written (the schema parts are already applied).
    const statements = fs
      .readFileSync("drizzle/0021_tasks_kept.sql", "utf8")
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter((s) => /typed_tasks/.test(s));
    expect(statements).toHaveLength(4);
    await database.db.transaction(async (tx) => {
      for (const statement of statements) await tx.execute(sql.raw(statement));
    });
    const taskOf = async (appointmentId: string) =>
      (
        await database.db
          .select()
          .from(appointmentTasks)
          .where(eq(appointmentTasks.appointmentId, appointmentId))
      )[0];
    const patched = await taskOf(open.id);
    expect(patched.serviceRequestId).not.toBeNull();
    expect(await requestOf(patched.serviceRequestId!)).toMatchObject({
      title: "Patch the drywall",
      status: "scheduled",
      customerId: w.member.id,
    });
    expect((await taskOf(canceled.id)).serviceRequestId).toBeNull();
  });
});
