import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { introCalls } from "~/db/schema";
import {
  holidaySettings,
  listClosedDays,
  loadClosedDays,
  saveHolidaySettings,
  setClosedDay,
} from "~/features/availability/closed-days.server";
import { bookIntroCall, schedulerData } from "~/features/intro-calls/booking.server";
import { zonedInstant } from "~/lib/business-calendar";
import { createUser } from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

let database: TestDatabase;
let staffId: string;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(
    sql`truncate "user", closed_days, holiday_closings, intro_calls, outbox cascade`,
  );
  staffId = (
    await createUser(database.db, {
      email: "staff@example.com",
      password: "x",
      firstName: "Dana",
      lastName: "Reyes",
      isEmployee: true,
    })
  ).id;
});

// Tuesday 24 November 2026, 9:00 AM in Atlanta.
const now = new Date("2026-11-24T14:00:00Z");

function form(startsAt: Date) {
  const data = new FormData();
  data.set("name", "Ada Booker");
  data.set("email", `ada${Math.random()}@example.com`);
  data.set("phone", "(404) 555-0170");
  data.set("startsAt", startsAt.toISOString());
  return data;
}

describe("closed days", () => {
  it("keeps intro calls off Thanksgiving and the day after, on the page and on the server", async () => {
    const data = await schedulerData(now);
    if (data.mode !== "builtin") throw new Error("expected the built-in scheduler");
    const dates = data.days.map((d) => d.date);
    expect(dates).not.toContain("2026-11-26");
    expect(dates).not.toContain("2026-11-27");
    const thanksgiving = await bookIntroCall(form(zonedInstant("2026-11-26", 10 * 60)), {
      clientAddress: "192.0.2.1",
      now,
    });
    expect(thanksgiving.outcome).toBe("invalid");
    const friday = await bookIntroCall(form(zonedInstant("2026-11-27", 10 * 60)), {
      clientAddress: "192.0.2.2",
      now,
    });
    expect(friday.outcome).toBe("invalid");
    expect(await database.db.select().from(introCalls)).toEqual([]);
  });

  it("follows staff: an extra closed day is refused, a reopened holiday is bookable", async () => {
    await setClosedDay({ date: "2026-11-30", closed: true, note: "Team training" }, staffId);
    await setClosedDay({ date: "2026-11-27", closed: false }, staffId);
    const closed = await loadClosedDays("2026-11-24", "2026-12-31");
    expect(closed.reason("2026-11-30")).toBe("Team training");
    expect(closed.isClosed("2026-11-27")).toBe(false);
    const training = await bookIntroCall(form(zonedInstant("2026-11-30", 10 * 60)), {
      clientAddress: "192.0.2.3",
      now,
    });
    expect(training.outcome).toBe("invalid");
    const reopened = await bookIntroCall(form(zonedInstant("2026-11-27", 10 * 60)), {
      clientAddress: "192.0.2.4",
      now,
    });
    expect(reopened.outcome).toBe("booked");

    const list = await listClosedDays("2026-11-24", 40);
    expect(list).toEqual([
      { date: "2026-11-26", name: "Thanksgiving Day", kind: "default" },
      { date: "2026-11-27", name: "Day after Thanksgiving", kind: "reopened" },
      { date: "2026-11-30", name: "Team training", kind: "added" },
      { date: "2026-12-25", name: "Christmas Day", kind: "default" },
      { date: "2027-01-01", name: "New Year's Day", kind: "default" },
    ]);
    // Closing the reopened default again needs no row; opening the extra day removes it.
    await setClosedDay({ date: "2026-11-27", closed: true }, staffId);
    await setClosedDay({ date: "2026-11-30", closed: false }, staffId);
    const rows = await database.db.execute(sql`select count(*)::int as n from closed_days`);
    expect((rows as unknown as { rows: { n: number }[] }).rows[0].n).toBe(0);
  });

  it("closes on the holidays the owner keeps, Columbus and Veterans Day by default (issue 32)", async () => {
    const settings = await holidaySettings();
    expect(settings).toHaveLength(12);
    expect(settings.every((h) => h.closed)).toBe(true);
    // Columbus Day 2027 is Monday 11 October; Veterans Day Thursday 11 November.
    let closed = await loadClosedDays("2027-10-01", "2027-11-30");
    expect(closed.reason("2027-10-11")).toBe("Columbus Day");
    expect(closed.reason("2027-11-11")).toBe("Veterans Day");

    // The owner keeps Columbus Day open: every year, on the calendar and in the list.
    const kept = settings.filter((h) => h.key !== "columbus-day").map((h) => h.key);
    await saveHolidaySettings(new Set(kept), staffId);
    expect((await holidaySettings()).filter((h) => !h.closed).map((h) => h.name)).toEqual([
      "Columbus Day",
    ]);
    closed = await loadClosedDays("2027-10-01", "2027-11-30");
    expect(closed.isClosed("2027-10-11")).toBe(false);
    expect(closed.isClosed("2027-11-11")).toBe(true);
    expect((await loadClosedDays("2028-10-01", "2028-10-31")).isClosed("2028-10-09")).toBe(false);
    const list = await listClosedDays("2027-10-01", 60);
    expect(list.map((d) => d.name)).toEqual([
      "Veterans Day",
      "Thanksgiving Day",
      "Day after Thanksgiving",
    ]);
    // A single Columbus Day can still be closed by hand, which now needs a row.
    await setClosedDay({ date: "2027-10-11", closed: true }, staffId);
    expect((await loadClosedDays("2027-10-01", "2027-10-31")).isClosed("2027-10-11")).toBe(true);

    // Checked again, it is closed by default once more.
    await saveHolidaySettings(new Set(settings.map((h) => h.key)), staffId);
    expect((await holidaySettings()).every((h) => h.closed)).toBe(true);
    expect((await loadClosedDays("2028-10-01", "2028-10-31")).isClosed("2028-10-09")).toBe(true);
  });
});
