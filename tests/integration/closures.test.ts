import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  appointments,
  closedDays,
  holidayClosings,
  memberships,
  outbox,
  visitOverrides,
} from "~/db/schema";
import { daysClosedByHolidaySettings } from "~/features/availability/closed-days.server";
import { DEFAULT_HOLIDAYS, type HolidayKey } from "~/lib/business-calendar";
import {
  appointmentWarnings,
  createAppointment as staffCreateAppointment,
} from "~/features/visits/staff-booking.server";
import {
  PAST_WARNING,
  staffBookingWarnings,
  strandedHeadline,
  visitsInClosure,
} from "~/features/availability/closures.server";
import {
  ClosureWarningsError,
  cancelStrandedVisits,
  moveStrandedVisits,
} from "~/features/visits/closures.server";
import { bookMemberVisit } from "~/features/visits/member-visits.server";
import { BookAnywayNeededError } from "~/features/visits/overrides.server";
import { INSIDE_CLOSURE_MESSAGE } from "~/features/visits/visits.server";
import { DOUBLE_BOOKING_MESSAGE } from "~/features/availability/double-booking";
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
 * Closures never strand a visit and staff are warned, not blocked (issue 26, items 4 and 5;
 * ADR 050), on both databases: the visits a closed day, time off or narrower hours would
 * strand, moving them (to a handyman free then, or to chosen times, warned first), canceling
 * them with the member's e-mail and minutes back, and 'Book anyway' kept with the staff name.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox, closed_days, holiday_closings cascade`);
});

// Tuesday 24 November 2026, 10:10 AM in Atlanta; the visits are on Monday 30 November.
const now = new Date("2026-11-24T15:10:00Z");
const MONDAY = "2026-11-30";

let n = 0;
async function people() {
  n++;
  const dana = await createUser(database.db, {
    email: `dana${n}@example.com`,
    password: "x",
    firstName: "Dana",
    lastName: "Reyes",
    isEmployee: true,
  });
  const sam = await createUser(database.db, {
    email: `sam${n}@example.com`,
    password: "x",
    firstName: "Sam",
    lastName: "Ortiz",
    isEmployee: true,
  });
  const account = await createUser(database.db, {
    email: `member${n}@example.com`,
    password: "x",
    firstName: "Maria",
    lastName: "Member",
  });
  const home = await createHome(database.db, account.id, { address: "418 Ponce de Leon Ave" });
  const request = await createServiceRequest(database.db, home, {
    title: "Fix the gate",
    priority: "next",
  });
  return { dana, sam, staff: { id: dana.id, isEmployee: true }, account, home, request };
}

function visitOf(
  home: { id: string; customerId: string },
  employeeId: string,
  date: string,
  start = "09:00",
  end = "10:45",
) {
  return createAppointment(database.db, home, {
    scheduledDate: date,
    startTime: start,
    endTime: end,
    assignedEmployeeId: employeeId,
    tasks: ["Fix the gate"],
  });
}

async function row(id: string) {
  const [r] = await database.db.select().from(appointments).where(eq(appointments.id, id));
  return r;
}

describe(`the visits a closure would strand (${testDatabaseKind()})`, () => {
  it("a closed day lists that day's open visits, whoever's, and says how many", async () => {
    const { dana, sam, home } = await people();
    const first = await visitOf(home, dana.id, MONDAY, "09:00", "10:45");
    const second = await visitOf(home, sam.id, MONDAY, "13:00", "14:45");
    const canceled = await visitOf(home, dana.id, MONDAY, "15:00", "16:45");
    await database.db
      .update(appointments)
      .set({ status: "canceled" })
      .where(eq(appointments.id, canceled.id));
    await visitOf(home, dana.id, "2026-12-01");
    const stranded = await visitsInClosure({ kind: "day", date: MONDAY }, { now });
    expect(stranded.map((v) => v.id)).toEqual([first.id, second.id]);
    expect(stranded[0]).toMatchObject({
      customerName: "Maria Member",
      handymanName: "Dana Reyes",
      label: "Monday, November 30, 2026, 9:00 AM to 10:45 AM",
      // Nobody works on a closed day.
      freeHandyman: null,
    });
    expect(strandedHeadline(3)).toBe("3 visits are booked in that time");
    expect(strandedHeadline(1)).toBe("1 visit is booked in that time");
  });

  it("time off lists only that handyman's visits, with another handyman free then", async () => {
    const { dana, sam, home } = await people();
    const ours = await visitOf(home, dana.id, MONDAY);
    await visitOf(home, sam.id, "2026-12-01");
    const stranded = await visitsInClosure(
      { kind: "time-off", employeeId: dana.id, startDate: MONDAY, endDate: "2026-12-01" },
      { now },
    );
    expect(stranded.map((v) => v.id)).toEqual([ours.id]);
    expect(stranded[0].freeHandyman).toEqual({ id: sam.id, name: "Sam Ortiz", replaces: "first" });
  });

  it("narrower hours list the visits no longer inside the day's hours", async () => {
    const { dana, home } = await people();
    const morning = await visitOf(home, dana.id, MONDAY, "09:00", "10:45");
    await visitOf(home, dana.id, MONDAY, "14:00", "15:45");
    const week = [null, { start: 13 * 60, end: 18 * 60 }, null, null, null, null, null];
    const stranded = await visitsInClosure({ kind: "hours", employeeId: dana.id, week }, { now });
    // Monday's morning visit, and nothing else: Dana no longer works Tuesdays, but has no
    // visit then.
    expect(stranded.map((v) => v.id)).toEqual([morning.id]);
  });
});

describe(`the holidays setting is a closure too (${testDatabaseKind()})`, () => {
  it("closing a holiday kept open lists the visits on it; days closed already or reopened by staff do not count", async () => {
    const { dana, staff, home } = await people();
    // Columbus Day (Monday 11 October 2027) and Veterans Day are kept open; the owner now closes
    // every holiday. Staff reopened Veterans Day 2027 (Thursday 11 November) by its date.
    await database.db.insert(holidayClosings).values([
      { holiday: "columbus-day", closed: false },
      { holiday: "veterans-day", closed: false },
    ]);
    await database.db.insert(closedDays).values({ date: "2027-11-11", closed: false });
    const columbus = await visitOf(home, dana.id, "2027-10-11");
    await visitOf(home, dana.id, "2027-11-11");
    await visitOf(home, dana.id, "2027-10-12");
    const all = new Set<HolidayKey>(DEFAULT_HOLIDAYS.map((h) => h.key));
    const days = await daysClosedByHolidaySettings(all, "2026-11-24", "2028-11-24");
    expect(days).toEqual([
      { date: "2027-10-11", name: "Columbus Day" },
      { date: "2028-10-09", name: "Columbus Day" },
      { date: "2028-11-10", name: "Veterans Day" },
    ]);
    // Keeping the setting as it is closes nothing.
    const unchanged = new Set([...all].filter((k) => k !== "columbus-day" && k !== "veterans-day"));
    expect(await daysClosedByHolidaySettings(unchanged, "2026-11-24", "2028-11-24")).toEqual([]);

    const closure = { kind: "days" as const, days };
    const stranded = await visitsInClosure(closure, { now });
    expect(stranded.map((v) => v.id)).toEqual([columbus.id]);
    // The business is closed that day: nobody else is free.
    expect(stranded[0].freeHandyman).toBeNull();
    expect(
      await cancelStrandedVisits(staff, closure, "we are closed on Columbus Day", { now }),
    ).toBe(1);
    expect((await row(columbus.id)).status).toBe("canceled");
    expect(await visitsInClosure(closure, { now })).toEqual([]);
  });
});

describe(`closing over booked visits (${testDatabaseKind()})`, () => {
  it("'Cancel and tell the members': canceled, minutes back, one e-mail with a link to choose again", async () => {
    const { account, staff, request } = await people();
    await createMembership(database.db, account.id, {
      plan: "complete",
      billing: "annual",
      startDate: "2026-11-01",
      today: "2026-11-24",
    });
    const [before] = await database.db.select().from(memberships);
    const visit = await bookMemberVisit(
      account.id,
      { block: 105, date: MONDAY, startMinute: 9 * 60, requestIds: [request.id] },
      { now },
    );
    const earlier = new Set((await database.db.select().from(outbox)).map((r) => r.id));
    const count = await cancelStrandedVisits(
      staff,
      { kind: "day", date: MONDAY },
      "we are closed on Monday, November 30, 2026: Team training",
      { now },
    );
    expect(count).toBe(1);
    expect((await row(visit.id)).status).toBe("canceled");
    const [after] = await database.db.select().from(memberships);
    expect(after.minutesAvailable).toBe(before.minutesAvailable);
    const mail = (await database.db.select().from(outbox))
      .filter((r) => r.kind === "email" && !earlier.has(r.id))
      .map((r) => r.payload as MailMessage);
    expect(mail).toHaveLength(1);
    expect(mail[0].to).toBe(account.email);
    expect(mail[0].text).toContain("we had to cancel this visit (we are closed on Monday");
    expect(mail[0].text).toContain("Please choose another time: ");
    expect(mail[0].text).toContain("/dashboard/book");
    expect(await visitsInClosure({ kind: "day", date: MONDAY }, { now })).toEqual([]);
  });

  it("'Move them': to the handyman free then; a time inside the closure is refused; warnings need 'Book anyway'", async () => {
    const { dana, sam, staff, home } = await people();
    const visit = await visitOf(home, dana.id, MONDAY);
    const closure = {
      kind: "time-off" as const,
      employeeId: dana.id,
      startDate: MONDAY,
      endDate: MONDAY,
    };
    // Still Dana, still Monday: inside the time off.
    await expect(
      moveStrandedVisits(
        staff,
        closure,
        { [visit.id]: { date: MONDAY, startMinute: 9 * 60, employeeId: dana.id } },
        { bookAnyway: true },
        { now },
      ),
    ).rejects.toThrow(INSIDE_CLOSURE_MESSAGE);
    // Saturday with Sam: warned, nothing changed.
    const saturday = { date: "2026-12-05", startMinute: 9 * 60, employeeId: sam.id };
    const warned = await moveStrandedVisits(
      staff,
      closure,
      { [visit.id]: saturday },
      { bookAnyway: false },
      { now },
    ).catch((e: unknown) => e);
    expect(warned).toBeInstanceOf(ClosureWarningsError);
    expect((warned as ClosureWarningsError).warnings[visit.id]).toEqual([
      "Sam Ortiz does not work on Saturdays.",
    ]);
    expect((await row(visit.id)).scheduledDate).toBe(MONDAY);
    // Sam, free at the same time: moved without a word.
    const moved = await moveStrandedVisits(
      staff,
      closure,
      { [visit.id]: { date: MONDAY, startMinute: 9 * 60, employeeId: sam.id } },
      { bookAnyway: false },
      { now },
    );
    expect(moved).toBe(1);
    expect(await row(visit.id)).toMatchObject({
      scheduledDate: MONDAY,
      assignedEmployeeId: sam.id,
      status: "booked",
    });
    expect(await database.db.select().from(visitOverrides)).toEqual([]);
  });

  it("a move booked anyway is kept with the staff member's name, the warnings and the reason", async () => {
    const { dana, sam, staff, home } = await people();
    const visit = await visitOf(home, dana.id, MONDAY);
    await moveStrandedVisits(
      staff,
      { kind: "day", date: MONDAY },
      { [visit.id]: { date: "2026-12-05", startMinute: 9 * 60, employeeId: sam.id } },
      { bookAnyway: true, reason: "Sam offered his Saturday" },
      { now },
    );
    expect((await row(visit.id)).scheduledDate).toBe("2026-12-05");
    const [override] = await database.db.select().from(visitOverrides);
    expect(override).toMatchObject({
      appointmentId: visit.id,
      staffId: dana.id,
      staffName: "Dana Reyes",
      action: "move",
      warnings: ["Sam Ortiz does not work on Saturdays."],
      reason: "Sam offered his Saturday",
    });
  });
});

describe(`staff are warned, not blocked (${testDatabaseKind()})`, () => {
  it("names a holiday, time off, hours outside the week and the past", async () => {
    const { dana } = await people();
    expect(
      await staffBookingWarnings(
        { date: "2026-11-26", start: 9 * 60, end: 10 * 60 + 45, employeeId: dana.id },
        { now },
      ),
    ).toEqual(["Thursday, November 26, 2026 is a closed day (Thanksgiving Day)."]);
    expect(
      await staffBookingWarnings(
        { date: "2026-11-29", start: 3 * 60, end: 4 * 60 + 45, employeeId: null },
        { now },
      ),
    ).toEqual(["The business is closed on Sundays."]);
    expect(
      await staffBookingWarnings(
        { date: MONDAY, start: 6 * 60, end: 7 * 60 + 45, employeeId: dana.id },
        { now },
      ),
    ).toEqual([
      "6:00 AM to 7:45 AM is outside Dana Reyes's working hours on Mondays (8:00 AM to 6:00 PM).",
    ]);
    expect(
      await staffBookingWarnings(
        { date: "2026-11-24", start: 9 * 60, end: 10 * 60, employeeId: dana.id },
        { now },
      ),
    ).toEqual([PAST_WARNING]);
    expect(
      await staffBookingWarnings(
        { date: MONDAY, start: 9 * 60, end: 10 * 60 + 45, employeeId: dana.id },
        { now },
      ),
    ).toEqual([]);
  });

  it("'Create New Appointment' on a holiday needs 'Book anyway', kept with the staff name; an overlap stays refused", async () => {
    const { dana, account, home } = await people();
    const input = {
      customerId: account.id,
      homeId: home.id,
      assignedEmployeeId: dana.id,
      scheduledDate: "2026-11-26",
      startTime: "09:00",
      endTime: "10:45",
      tasks: [{ description: "Fix the gate" }],
    };
    await expect(appointmentWarnings(input, { now })).rejects.toBeInstanceOf(BookAnywayNeededError);
    const warnings = await appointmentWarnings({ ...input, bookAnyway: true }, { now });
    const visit = await staffCreateAppointment(
      { ...input, bookAnyway: true, overrideReason: "Emergency leak" },
      dana.id,
      { warnings },
    );
    const [override] = await database.db.select().from(visitOverrides);
    expect(override).toMatchObject({
      appointmentId: visit.id,
      staffName: "Dana Reyes",
      action: "book",
      warnings: ["Thursday, November 26, 2026 is a closed day (Thanksgiving Day)."],
      reason: "Emergency leak",
    });
    // Booking anyway never books a handyman twice at once.
    await expect(
      staffCreateAppointment({ ...input, startTime: "10:00", endTime: "11:45" }, dana.id, {
        warnings,
      }),
    ).rejects.toThrow(DOUBLE_BOOKING_MESSAGE);
  });
});
