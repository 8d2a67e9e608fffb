import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  appointments,
  appointmentTasks,
  membershipMinutesLedger,
  memberships,
  membershipVisits,
  outbox,
  serviceRequests,
} from "~/db/schema";
import { correctTimeWorked, timeWorked } from "~/features/memberships/visit-minutes.server";
import { membershipStatement } from "~/features/memberships/statement.server";
import { listUpcomingAppointments } from "~/features/visits/visit-lists.server";
import { offerVisits } from "~/features/availability/availability.server";
import { bookMemberVisit } from "~/features/visits/member-visits.server";
import {
  changeVisitState,
  completeVisit,
  isVisitLifeRefusal,
  markNoShow,
  markOnTheWay,
  startVisit,
  visitTasks,
} from "~/features/visits/visit-life.server";
import { mayTransition, VISIT_STATUSES, type VisitStatus } from "~/features/visits/visit-state";
import {
  COMPLETED_NOT_MOVED_MESSAGE,
  REQUEST_BOOKED_MESSAGE,
  VisitRejectedError,
  bookVisit,
  cancelVisit,
  moveVisit,
} from "~/features/visits/visits.server";
import type { MailMessage } from "~/lib/mail.server";
import {
  createAppointment,
  createHome,
  createMembership,
  createServiceRequest,
  createUser,
} from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * A visit's life (ADR 046) on both databases: every pair of states against the module's table
 * and the trigger, completion closing the work, a completed visit final, the time worked
 * corrected by an entry of its own, and one request on one open visit under 20 parallel
 * bookings.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox cascade`);
});

// Tuesday 24 November 2026, 10:10 AM in Atlanta; the visits are on Monday 30 November.
const now = new Date("2026-11-24T15:10:00Z");
const visitDay = new Date("2026-11-30T20:00:00Z");

let n = 0;
async function people() {
  n++;
  const handyman = await createUser(database.db, {
    email: `handyman${n}@example.com`,
    password: "x",
    firstName: "Dana",
    lastName: "Reyes",
    isEmployee: true,
  });
  const account = await createUser(database.db, {
    email: `member${n}@example.com`,
    password: "x",
    firstName: "Maria",
    lastName: "Member",
  });
  const home = await createHome(database.db, account.id, { address: "418 Ponce de Leon Ave" });
  const requests = [];
  for (const title of ["Fix the gate", "Hang shelves", "Caulk the tub", "Paint the door"]) {
    requests.push(await createServiceRequest(database.db, home, { title, priority: "next" }));
  }
  return { handyman, staff: { id: handyman.id, isEmployee: true }, account, home, requests };
}

/** SQLSTATE and constraint of the database's refusal (the pg and PGlite errors differ in shape). */
function refusal(error: unknown) {
  let current: unknown = error;
  while (current && typeof current === "object") {
    const e = current as { code?: string; constraint?: string };
    if (e.code) return { code: e.code, constraint: e.constraint };
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

async function statusOf(id: string) {
  const [row] = await database.db
    .select({ status: appointments.status })
    .from(appointments)
    .where(eq(appointments.id, id));
  return row.status;
}

describe(`a visit's states (${testDatabaseKind()})`, () => {
  it("the trigger allows exactly the transitions of the module's table, and so does the module", async () => {
    const { home } = await people();
    const pairs: [VisitStatus, VisitStatus][] = VISIT_STATUSES.flatMap((from) =>
      VISIT_STATUSES.filter((to) => to !== from).map(
        (to) => [from, to] as [VisitStatus, VisitStatus],
      ),
    );
    expect(pairs).toHaveLength(30);
    let allowed = 0;
    for (const [from, to] of pairs) {
      const visit = await createAppointment(database.db, home, {
        scheduledDate: "2026-11-30",
        startTime: "09:00",
        endTime: "10:45",
        tasks: [],
      });
      // Every state is one step from booked.
      if (from !== "booked")
        await database.db.execute(
          sql`update appointments set status = ${from} where id = ${visit.id}`,
        );
      // A raw UPDATE, as a script or a forgotten guard would write it.
      const raw = await database.db
        .execute(sql`update appointments set status = ${to} where id = ${visit.id}`)
        .then(
          () => null,
          (error: unknown) => error,
        );
      if (mayTransition(from, to)) {
        allowed++;
        expect(raw, `${from} -> ${to}`).toBeNull();
        expect(await statusOf(visit.id)).toBe(to);
      } else {
        expect(refusal(raw), `${from} -> ${to}`).toEqual({
          code: "23514",
          constraint: "appointments_visit_life",
        });
        expect(isVisitLifeRefusal(raw)).toBe(true);
        expect(await statusOf(visit.id)).toBe(from);
        // The module refuses it first, in words.
        await expect(
          database.db.transaction((tx) => changeVisitState(tx, visit.id, to)),
        ).rejects.toThrow(VisitRejectedError);
      }
    }
    // booked: 5, on the way: 4, in progress: 1; the three ends: none.
    expect(allowed).toBe(10);
  });

  it("a visit starts booked, and an ended visit keeps its day, times and handyman", async () => {
    const { home, handyman } = await people();
    const inserted = await database.db
      .insert(appointments)
      .values({
        customerId: home.customerId,
        homeId: home.id,
        scheduledDate: "2026-11-30",
        startTime: "09:00",
        endTime: "10:45",
        status: "completed",
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refusal(inserted)?.constraint).toBe("appointments_visit_life");
    for (const end of ["completed", "canceled", "no_show"] as const) {
      const visit = await createAppointment(database.db, home, {
        scheduledDate: "2026-11-30",
        startTime: "13:00",
        endTime: "14:45",
        tasks: [],
      });
      await database.db.execute(
        sql`update appointments set status = ${end} where id = ${visit.id}`,
      );
      for (const change of [
        sql`update appointments set scheduled_date = '2026-12-01' where id = ${visit.id}`,
        sql`update appointments set start_time = '14:00', end_time = '15:45' where id = ${visit.id}`,
        sql`update appointments set assigned_employee_id = ${handyman.id} where id = ${visit.id}`,
      ]) {
        const error = await database.db.execute(change).then(
          () => null,
          (e: unknown) => e,
        );
        expect(refusal(error)?.constraint, end).toBe("appointments_visit_life");
      }
    }
  });

  it("on the way and started on the visit's day only, by staff only; a no-show frees the time", async () => {
    const { account, staff, requests } = await people();
    const visit = await bookVisit(
      account.id,
      { block: 105, date: "2026-11-30", startMinute: 9 * 60, requestIds: [requests[0].id] },
      { now },
    );
    const member = { id: account.id, isEmployee: false };
    await expect(markOnTheWay(member, visit.id, { now: visitDay })).rejects.toThrow(
      "Only staff can change a visit's progress.",
    );
    await expect(markOnTheWay(staff, visit.id, { now })).rejects.toThrow(
      "This can be done on the visit's day only.",
    );
    await markOnTheWay(staff, visit.id, { now: visitDay });
    expect(await statusOf(visit.id)).toBe("on_the_way");
    // The member's Appointments read the same state (shown as 'On the way').
    expect((await listUpcomingAppointments(account.id, "2026-11-30")).map((a) => a.status)).toEqual(
      ["on_the_way"],
    );
    await markNoShow(staff, visit.id, { now: visitDay });
    expect(await statusOf(visit.id)).toBe("no_show");
    expect(await listUpcomingAppointments(account.id, "2026-11-30")).toEqual([]);
    await expect(startVisit(staff, visit.id, { now: visitDay })).rejects.toThrow(
      "This visit was marked a no-show and cannot be changed.",
    );
    // The request is free for another visit, and the handyman's time too.
    const again = await bookVisit(
      account.id,
      { block: 105, date: "2026-11-30", startMinute: 9 * 60, requestIds: [requests[0].id] },
      { now },
    );
    expect(again.id).not.toBe(visit.id);
  });
});

describe(`completing a visit (${testDatabaseKind()})`, () => {
  it("closes the work: done tasks complete their requests, the others go back, the minutes return, one e-mail", async () => {
    const { account, staff, requests } = await people();
    await createMembership(database.db, account.id, {
      plan: "complete",
      billing: "annual",
      startDate: "2026-11-01",
      today: "2026-11-24",
    });
    const visit = await bookMemberVisit(
      account.id,
      {
        block: 210,
        date: "2026-11-30",
        startMinute: 9 * 60,
        requestIds: [requests[0].id, requests[1].id],
      },
      { now },
    );
    await markOnTheWay(staff, visit.id, { now: visitDay });
    await startVisit(staff, visit.id, { now: visitDay });
    expect(await statusOf(visit.id)).toBe("in_progress");
    const tasks = await visitTasks(visit.id);
    const gate = tasks.find((t) => t.description === "Fix the gate")!;
    const shelves = tasks.find((t) => t.description === "Hang shelves")!;
    await database.db.delete(outbox);

    // Every task needs its answer; the time worked its 15-minute steps.
    await expect(
      completeVisit(
        staff,
        visit.id,
        { minutesWorked: 120, outcomes: { [gate.id]: "done" } },
        { now: visitDay },
      ),
    ).rejects.toThrow("Please mark each task Done or Not done.");
    await expect(
      completeVisit(
        staff,
        visit.id,
        { minutesWorked: 100, outcomes: { [gate.id]: "done", [shelves.id]: "not_done" } },
        { now: visitDay },
      ),
    ).rejects.toThrow("15-minute steps");

    const done = await completeVisit(
      staff,
      visit.id,
      { minutesWorked: 120, outcomes: { [gate.id]: "done", [shelves.id]: "not_done" } },
      { now: visitDay },
    );
    expect(done).toMatchObject({
      minutesBack: 90,
      done: ["Fix the gate"],
      notDone: ["Hang shelves"],
    });
    expect(await statusOf(visit.id)).toBe("completed");
    const statuses = await database.db
      .select({ id: serviceRequests.id, status: serviceRequests.status })
      .from(serviceRequests)
      .where(eq(serviceRequests.customerId, account.id));
    const byId = new Map(statuses.map((s) => [s.id, s.status]));
    expect(byId.get(requests[0].id)).toBe("complete");
    expect(byId.get(requests[1].id)).toBe("reviewed");
    const outcomes = await database.db
      .select({ outcome: appointmentTasks.outcome, open: appointmentTasks.visitOpen })
      .from(appointmentTasks)
      .where(eq(appointmentTasks.appointmentId, visit.id));
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(["done", "not_done"]);
    expect(outcomes.every((o) => !o.open)).toBe(true);
    const [bank] = await database.db
      .select({ minutes: memberships.minutesAvailable })
      .from(memberships)
      .where(eq(memberships.customerId, account.id));
    expect(bank.minutes).toBe(42 * 60 - 120);

    const mail = (await database.db.select().from(outbox)).map((r) => r.payload as MailMessage);
    expect(mail.map((m) => m.subject)).toEqual(["Visit completed on Monday, November 30, 2026"]);
    expect(mail[0].text).toContain("Time used: 2 h.");
    expect(mail[0].text).toContain("Tasks done:\n- Fix the gate");
    expect(mail[0].text).toContain("Not done this time (back on your list):\n- Hang shelves");
    // In the Plan tab's meter words (issue 39, item 11).
    expect(mail[0].text).toMatch(
      /Your hours: 42 h paid, 40 h left now; 42 h more on November 1, 2027\./,
    );

    // The task not done can be booked again; the done one cannot.
    await expect(
      bookVisit(
        account.id,
        { block: 105, date: "2026-12-01", startMinute: 9 * 60, requestIds: [requests[0].id] },
        { now },
      ),
    ).rejects.toThrow("A chosen task is not one of your open requests.");
    await bookVisit(
      account.id,
      { block: 105, date: "2026-12-01", startMinute: 9 * 60, requestIds: [requests[1].id] },
      { now },
    );
  });

  it("a completed visit is final: not moved, not canceled, not completed twice", async () => {
    const { account, staff, requests } = await people();
    const visit = await bookVisit(
      account.id,
      { block: 105, date: "2026-11-30", startMinute: 9 * 60, requestIds: [requests[0].id] },
      { now },
    );
    const [task] = await visitTasks(visit.id);
    await expect(
      completeVisit(
        staff,
        visit.id,
        { minutesWorked: 60, outcomes: { [task.id]: "done" } },
        { now },
      ),
    ).rejects.toThrow("A visit can be completed on or after its day.");
    await completeVisit(
      staff,
      visit.id,
      { minutesWorked: 60, outcomes: { [task.id]: "done" } },
      { now: visitDay },
    );
    await expect(cancelVisit(staff, visit.id, { now: visitDay })).rejects.toThrow(
      "This visit is completed and cannot be canceled.",
    );
    await expect(
      cancelVisit({ id: account.id, isEmployee: false }, visit.id, { now }),
    ).rejects.toThrow("This visit is completed and cannot be canceled.");
    await expect(
      moveVisit(staff, visit.id, { date: "2026-12-01", startMinute: 9 * 60 }, { now }),
    ).rejects.toThrow(COMPLETED_NOT_MOVED_MESSAGE);
    await expect(
      completeVisit(
        staff,
        visit.id,
        { minutesWorked: 60, outcomes: { [task.id]: "done" } },
        { now: visitDay },
      ),
    ).rejects.toThrow("This visit is completed and cannot be changed.");
    expect(await statusOf(visit.id)).toBe("completed");
    const [request] = await database.db
      .select({ status: serviceRequests.status })
      .from(serviceRequests)
      .where(eq(serviceRequests.id, requests[0].id));
    expect(request.status).toBe("complete");
  });

  it("'Correct time worked' is an entry of its own with its reason, shown on the statement", async () => {
    const { account, staff, requests } = await people();
    const m = await createMembership(database.db, account.id, {
      plan: "complete",
      billing: "annual",
      startDate: "2026-11-01",
      today: "2026-11-24",
    });
    const visit = await bookMemberVisit(
      account.id,
      { block: 105, date: "2026-11-30", startMinute: 9 * 60, requestIds: [requests[0].id] },
      { now },
    );
    const [task] = await visitTasks(visit.id);
    await completeVisit(
      staff,
      visit.id,
      { minutesWorked: 60, outcomes: { [task.id]: "done" } },
      { now: visitDay },
    );
    await expect(
      correctTimeWorked({ appointmentId: visit.id, minutesWorked: 90, reason: "  " }, staff.id),
    ).rejects.toThrow("Please give the reason for the correction");
    await correctTimeWorked(
      { appointmentId: visit.id, minutesWorked: 90, reason: "Forgot the trip to the store" },
      staff.id,
    );
    await correctTimeWorked(
      { appointmentId: visit.id, minutesWorked: 75, reason: "Receipt shows 9:00 to 10:15" },
      staff.id,
    );
    // The visit's record is never edited: the corrections are ledger rows.
    const [held] = await database.db
      .select({ minutesWorked: membershipVisits.minutesWorked })
      .from(membershipVisits)
      .where(eq(membershipVisits.appointmentId, visit.id));
    expect(held.minutesWorked).toBe(60);
    const corrections = await database.db
      .select({ minutes: membershipMinutesLedger.minutes, note: membershipMinutesLedger.note })
      .from(membershipMinutesLedger)
      .where(
        and(
          eq(membershipMinutesLedger.appointmentId, visit.id),
          eq(membershipMinutesLedger.kind, "correction"),
        ),
      )
      .orderBy(membershipMinutesLedger.seq);
    expect(corrections.map((c) => c.minutes)).toEqual([-30, 15]);
    const [bank] = await database.db
      .select({ minutes: memberships.minutesAvailable })
      .from(memberships)
      .where(eq(memberships.id, m.id));
    expect(bank.minutes).toBe(42 * 60 - 75);
    const statement = await membershipStatement(m.id);
    expect(statement[0]).toMatchObject({
      ledger: "hours",
      kind: "correction",
      minutes: 15,
      minutesBalance: 42 * 60 - 75,
      description:
        "Visit on November 30, 2026: time worked corrected from 1 h 30 min to 1 h 15 min (Receipt shows 9:00 to 10:15)",
    });
    await expect(
      correctTimeWorked(
        { appointmentId: visit.id, minutesWorked: 120, reason: "Over the block" },
        staff.id,
      ),
    ).rejects.toThrow("15-minute steps");
    expect(await timeWorked(database.db, visit.id)).toBe(75);

    // Another member's visit: its time worked is its own, whatever was corrected on this one.
    const other = await people();
    await createMembership(database.db, other.account.id, {
      plan: "complete",
      billing: "annual",
      startDate: "2026-11-01",
      today: "2026-11-24",
    });
    const otherVisit = await bookMemberVisit(
      other.account.id,
      { block: 105, date: "2026-11-30", startMinute: 13 * 60, requestIds: [other.requests[0].id] },
      { now },
    );
    const [otherTask] = await visitTasks(otherVisit.id);
    await completeVisit(
      other.staff,
      otherVisit.id,
      { minutesWorked: 60, outcomes: { [otherTask.id]: "done" } },
      { now: visitDay },
    );
    expect(await timeWorked(database.db, otherVisit.id)).toBe(60);
  });
});

describe(`one request, one upcoming visit (${testDatabaseKind()})`, () => {
  it("20 parallel bookings of one request give exactly one visit", async () => {
    const { account, requests } = await people();
    // 20 starts that do not overlap, so that only the request rule can refuse them.
    const { days } = await offerVisits({ customerId: account.id, block: 105, now });
    const slots: { date: string; startMinute: number }[] = [];
    for (const day of days) {
      let free = 0;
      for (const slot of day.slots) {
        if (slot.startMinute < free) continue;
        slots.push({ date: day.date, startMinute: slot.startMinute });
        free = slot.startMinute + 105;
      }
    }
    expect(slots.length).toBeGreaterThanOrEqual(20);
    const results = await Promise.allSettled(
      slots
        .slice(0, 20)
        .map((slot) =>
          bookVisit(account.id, { block: 105, ...slot, requestIds: [requests[0].id] }, { now }),
        ),
    );
    const booked = results.filter((r) => r.status === "fulfilled");
    expect(booked).toHaveLength(1);
    for (const r of results) {
      if (r.status === "rejected") expect(r.reason).toBeInstanceOf(VisitRejectedError);
    }
    const rows = await database.db
      .select({ id: appointments.id })
      .from(appointments)
      .where(eq(appointments.customerId, account.id));
    expect(rows).toHaveLength(1);
  });

  it("the database holds a request to one open visit even without the booking's checks", async () => {
    const { home, requests } = await people();
    const first = await createAppointment(database.db, home, {
      scheduledDate: "2026-11-30",
      startTime: "09:00",
      endTime: "10:45",
      tasks: [],
    });
    const second = await createAppointment(database.db, home, {
      scheduledDate: "2026-12-01",
      startTime: "09:00",
      endTime: "10:45",
      tasks: [],
    });
    await database.db.insert(appointmentTasks).values({
      appointmentId: first.id,
      taskDescription: "Fix the gate",
      serviceRequestId: requests[0].id,
    });
    const twice = await database.db
      .insert(appointmentTasks)
      .values({
        appointmentId: second.id,
        taskDescription: "Fix the gate",
        serviceRequestId: requests[0].id,
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(refusal(twice)).toEqual({
      code: "23505",
      constraint: "appointment_tasks_one_open_visit_per_request",
    });
    // Once the first visit is canceled, the request is free again.
    await database.db.execute(
      sql`update appointments set status = 'canceled' where id = ${first.id}`,
    );
    await database.db.insert(appointmentTasks).values({
      appointmentId: second.id,
      taskDescription: "Fix the gate",
      serviceRequestId: requests[0].id,
    });
    expect(REQUEST_BOOKED_MESSAGE).toBe("A chosen task is already on another upcoming visit.");
  });
});
