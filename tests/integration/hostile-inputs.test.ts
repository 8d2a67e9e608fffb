import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { closedDays, employeeTimeOff, memberships } from "~/db/schema";
import { answerAuthApi } from "~/features/accounts/auth-gateway.server";
import { createAppointmentSchema } from "~/features/visits/staff-booking-schema";
import { SCHEDULE_WINDOW_MESSAGE } from "~/features/availability/staff-availability.server";
import { START_DATE_WINDOW_MESSAGE } from "~/features/memberships/schema";
import { addDays, addYears, businessToday } from "~/lib/business-calendar";
import { newActionKey } from "~/lib/action-keys.server";
import { CONTROL_CHARACTERS_MESSAGE } from "~/lib/validation";
import { action as availabilityAction } from "~/routes/employee.availability";
import { action as membershipAction } from "~/routes/employee.customers.$customerId.membership";
import { loader as visitSpendLoader } from "~/routes/employee.customers.$customerId.visit-spend";
import { loader as scheduleLoader } from "~/routes/employee.schedule";
import { createHome, createMembership, createUser } from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * Inputs a hostile probe sent that answered 500 (issue 25, item 4), through the routes' own
 * actions and loaders: each is now a 4xx with the message a person would read, or a quiet
 * "nothing to show", and nothing reaches the database. Dates are built from the current
 * business day, never fixed.
 */

const session = vi.hoisted(() => ({ staffId: "" }));
vi.mock("~/lib/session.server", async (importOriginal) => {
  const original = await importOriginal<Record<string, unknown>>();
  const staff = async () => ({
    id: session.staffId,
    isEmployee: true,
    isHandyman: false,
    hasHome: false,
  });
  return {
    ...original,
    requireEmployee: staff,
    requireEmployeeForAction: staff,
    requireStaff: staff,
    requireStaffForAction: staff,
  };
});

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", closed_days, outbox cascade`);
  session.staffId = (
    await createUser(database.db, {
      email: "staff@example.com",
      password: "x",
      firstName: "Dana",
      lastName: "Reyes",
      isEmployee: true,
    })
  ).id;
});

type Answer = { init?: { status?: number }; data?: { ok: boolean; message: string } };

function post(url: string, fields: Record<string, string>) {
  return new Request(`http://localhost${url}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { accept: "application/json" },
  });
}

async function availability(fields: Record<string, string>) {
  return (await availabilityAction({
    request: post("/employee/availability", fields),
    params: {},
    context: {},
  } as never)) as Answer | Response;
}

function refusal(answer: Answer | Response) {
  if (answer instanceof Response) throw new Error(`expected a refusal, got ${answer.status}`);
  return { status: answer.init?.status, message: answer.data?.message };
}

const today = () => businessToday();

describe("staff notes and dates (time off, closed days)", () => {
  it("refuses NUL and BEL in a time-off note with the control-character message", async () => {
    for (const note of ["Dentist\u0000", "Bell \u0007 here"]) {
      const answer = await availability({
        intent: "time-off",
        startDate: addDays(today(), 7),
        endDate: addDays(today(), 8),
        note,
      });
      expect(refusal(answer)).toEqual({ status: 400, message: CONTROL_CHARACTERS_MESSAGE });
    }
    expect(await database.db.$count(employeeTimeOff)).toBe(0);
    // A note with a tab and a line break is ordinary text.
    const saved = await availability({
      intent: "time-off",
      startDate: addDays(today(), 7),
      note: "Dentist,\tthen\nhome",
    });
    expect(saved).toBeInstanceOf(Response);
    expect((saved as Response).status).toBe(302);
    expect(await database.db.$count(employeeTimeOff)).toBe(1);
  });

  it("refuses NUL and BEL in a closed-day note with the control-character message", async () => {
    for (const note of ["Inventory\u0000", "Inventory\u0007"]) {
      const answer = await availability({ intent: "close-day", date: addDays(today(), 9), note });
      expect(refusal(answer)).toEqual({ status: 400, message: CONTROL_CHARACTERS_MESSAGE });
    }
    expect(await database.db.$count(closedDays)).toBe(0);
  });

  it("keeps closed days and time off within 2 years of today", async () => {
    const farthest = addYears(today(), 2);
    for (const date of ["9999-12-31", addDays(farthest, 1), addDays(addYears(today(), -2), -1)]) {
      const answer = await availability({ intent: "close-day", date, note: "" });
      expect(refusal(answer)).toEqual({ status: 400, message: SCHEDULE_WINDOW_MESSAGE });
    }
    for (const [startDate, endDate] of [
      [addDays(today(), 1), "9999-12-31"],
      [addDays(farthest, 1), addDays(farthest, 3)],
    ]) {
      const answer = await availability({ intent: "time-off", startDate, endDate });
      expect(refusal(answer)).toEqual({ status: 400, message: SCHEDULE_WINDOW_MESSAGE });
    }
    expect(await database.db.$count(closedDays)).toBe(0);
    expect(await database.db.$count(employeeTimeOff)).toBe(0);

    // The last day of the window is still a day staff can close, or take off.
    const closed = await availability({ intent: "close-day", date: farthest, note: "Far" });
    expect((closed as Response).status).toBe(302);
    const off = await availability({ intent: "time-off", startDate: farthest });
    expect((off as Response).status).toBe(302);
    expect(await database.db.$count(closedDays)).toBe(1);
    expect(await database.db.$count(employeeTimeOff)).toBe(1);
  });

  it("bounds an appointment's date to 2 years ahead", () => {
    const schema = createAppointmentSchema(today());
    const base = {
      customerId: "customer-1",
      homeId: "00000000-0000-4000-8000-000000000000",
      startTime: "09:00",
      endTime: "10:00",
      tasks: [{ description: "Fix the gate" }],
    };
    expect(schema.safeParse({ ...base, scheduledDate: addYears(today(), 2) }).success).toBe(true);
    for (const scheduledDate of [addDays(addYears(today(), 2), 1), "9999-12-31"]) {
      const parsed = schema.safeParse({ ...base, scheduledDate });
      expect(parsed.error?.issues[0].message).toBe("The date must be within 2 years of today");
    }
  });
});

describe("a membership's start date", () => {
  async function customer() {
    const member = await createUser(database.db, {
      email: "member@example.com",
      password: "x",
      firstName: "Maria",
      lastName: "Alvarez",
    });
    await createHome(database.db, member.id);
    return member;
  }

  async function start(customerId: string, startDate: string, amount = "295") {
    return (await membershipAction({
      request: post(`/employee/customers/${customerId}/membership`, {
        intent: "start",
        key: newActionKey(),
        plan: "complete",
        billing: "monthly",
        startDate,
        amount,
        method: "check",
      }),
      params: { customerId },
      context: {},
    } as never)) as Answer;
  }

  it("is at most a year back and a year ahead: 1926 and 9999 are refused, nothing charged", async () => {
    const member = await customer();
    for (const startDate of [
      "1926-11-26",
      "9999-12-31",
      addDays(addYears(today(), -1), -1),
      addDays(addYears(today(), 1), 1),
    ]) {
      const answer = await start(member.id, startDate);
      expect(answer.init?.status).toBe(400);
      expect(answer.data).toMatchObject({ ok: false, message: START_DATE_WINDOW_MESSAGE });
    }
    expect(await database.db.$count(memberships)).toBe(0);

    // Success is answered in the same envelope (ADR 033), 200.
    const started = await start(member.id, addYears(today(), -1));
    expect(started.init?.status).toBe(200);
    expect(started.data).toMatchObject({
      ok: true,
      message: "First payment recorded: the membership started.",
    });
    // A year back is twelve (or thirteen) monthly periods charged, not a century's.
    const [m] = await database.db.select().from(memberships);
    expect(m.periodsCharged).toBeGreaterThanOrEqual(12);
    expect(m.periodsCharged).toBeLessThanOrEqual(13);
  });

  it("a refused start marks every field it refuses, the first message its sentence (ADR 093)", async () => {
    const member = await customer();
    const answer = (await start(member.id, "9999-12-31", "")) as Answer & {
      data?: { intent: string; result?: { error?: Record<string, string[] | null> } };
    };
    expect(answer.init?.status).toBe(400);
    expect(answer.data).toMatchObject({
      ok: false,
      intent: "start",
      message: START_DATE_WINDOW_MESSAGE,
    });
    const errors = answer.data?.result?.error ?? {};
    expect(errors.startDate).toEqual([START_DATE_WINDOW_MESSAGE]);
    expect(errors.amount?.[0]).toMatch(/^Please enter the amount in dollars/);
    expect(Object.keys(errors).sort()).toEqual(["amount", "startDate"]);
    expect(await database.db.$count(memberships)).toBe(0);
  });
});

describe("the visit-spend estimate", () => {
  it("answers 200 without an estimate for a date that is not a day, or out of reach", async () => {
    const member = await createUser(database.db, {
      email: "spender@example.com",
      password: "x",
      firstName: "Sam",
      lastName: "Spender",
    });
    const home = await createHome(database.db, member.id);
    await createMembership(database.db, home.customerId, { startDate: today() });
    for (const date of ["9999-99-99", "9999-12-31", "0000-01-01", "2026-02-30", "x"]) {
      const answer = (await visitSpendLoader({
        request: new Request(
          `http://localhost/employee/customers/${member.id}/visit-spend?date=${date}&block=105`,
        ),
        params: { customerId: member.id },
        context: {},
      } as never)) as { data: { member: boolean; spend: unknown } };
      expect(answer.data).toMatchObject({ member: true, spend: null });
    }
    const ordinary = (await visitSpendLoader({
      request: new Request(
        `http://localhost/employee/customers/${member.id}/visit-spend?date=${addDays(today(), 3)}&block=105`,
      ),
      params: { customerId: member.id },
      context: {},
    } as never)) as { data: { spend: { kind: string } | null } };
    expect(ordinary.data.spend?.kind).toBeDefined();
  });
});

describe("the staff week view", () => {
  it("shows this week for a week out of reach (year 9999) instead of failing", async () => {
    const week = async (value: string) =>
      (await scheduleLoader({
        request: new Request(`http://localhost/employee/schedule?week=${value}`),
        params: {},
        context: {},
      } as never)) as { monday: string; days: { date: string }[] };
    const thisWeek = await week("");
    for (const value of ["9999-12-31", "9999-99-99", addDays(addYears(today(), 2), 7)]) {
      const shown = await week(value);
      expect(shown.monday).toBe(thisWeek.monday);
      expect(shown.days).toHaveLength(7);
    }
    const ahead = await week(addDays(today(), 14));
    expect(ahead.monday > thisWeek.monday).toBe(true);
  });
});

describe("bodies sent to /api/auth/*", () => {
  function nested(depth: number, inner: unknown) {
    return `${"[".repeat(depth)}${JSON.stringify(inner)}${"]".repeat(depth)}`;
  }

  async function send(path: string, body: string) {
    const response = await answerAuthApi(
      new Request(`http://localhost/api/auth/${path}`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json" },
      }),
      "192.0.2.10",
    );
    return { status: response.status, body: (await response.json()) as { code: string } };
  }

  it("refuses deeply nested JSON with 400 instead of overflowing the stack", async () => {
    // 30,000 levels fit in the 64 KB the server accepts for a form or JSON body.
    for (const path of ["sign-in/email", "update-user", "two-factor/verify-totp"]) {
      const deep = `{"email":"a@example.com","password":"x","x":${nested(30_000, "y")}}`;
      expect(await send(path, deep)).toEqual({
        status: 400,
        body: { code: "INVALID_BODY", message: "Invalid request body" },
      });
      expect(await send(path, nested(30_000, {}))).toMatchObject({ status: 400 });
    }
  });

  it("still finds a control character a few levels down", async () => {
    const body = JSON.stringify({ email: "a@example.com", list: [[{ note: "x\u0000" }]] });
    expect(await send("update-user", body)).toMatchObject({
      status: 400,
      body: { code: "INVALID_CHARACTERS" },
    });
  });
});
