import { describe, expect, it } from "vitest";
import { addDays, businessToday } from "~/lib/business-calendar";
import { catalogTasksFor, PLAN_CATALOG, PLAN_MIN_TASKS } from "./catalog";
import {
  dueState,
  firstDueMonthFrom,
  frequencyLabel,
  monthOf,
  nextDueMonth,
  nextMonth,
} from "./plan-dates";

/*
 * When a plan task falls due (ADR 087). The calendar cases use fixed dates; the last group takes
 * "today" from the clock, so that it holds with the clock moved (scripts/moved-clock.ts).
 */

describe("a plan task's next due month", () => {
  const filters = { months: [1, 4, 7, 10], lastDoneOn: null as string | null };

  it("is the first due month from the plan's month when never done", () => {
    expect(nextDueMonth(filters, "2026-11-27")).toBe("2027-01-01");
    expect(nextDueMonth(filters, "2026-10-03")).toBe("2026-10-01");
    expect(nextDueMonth({ months: [11], lastDoneOn: null }, "2026-11-30")).toBe("2026-11-01");
  });

  it("moves to the first due month after the month it was last done in", () => {
    expect(nextDueMonth({ ...filters, lastDoneOn: "2026-10-15" }, "2026-01-01")).toBe("2027-01-01");
    // Done late (in February for January): next in April, not in January again.
    expect(nextDueMonth({ ...filters, lastDoneOn: "2027-02-03" }, "2026-01-01")).toBe("2027-04-01");
    // Gutters in spring and late fall: done in November, next in April.
    expect(nextDueMonth({ months: [4, 11], lastDoneOn: "2026-11-20" }, "2026-01-01")).toBe(
      "2027-04-01",
    );
    // Done in December for a November task: next November.
    expect(nextDueMonth({ months: [11], lastDoneOn: "2026-12-31" }, "2026-01-01")).toBe(
      "2027-11-01",
    );
  });

  it("wraps the year and tells due, overdue and later apart", () => {
    expect(firstDueMonthFrom([2], "2026-03-01")).toBe("2027-02-01");
    expect(nextMonth("2026-12-01")).toBe("2027-01-01");
    expect(dueState("2026-11-01", "2026-11-30")).toBe("due");
    expect(dueState("2026-10-01", "2026-11-01")).toBe("overdue");
    expect(dueState("2026-12-01", "2026-11-30")).toBe("later");
    expect(frequencyLabel([1, 4, 7, 10])).toBe("Every 3 months");
    expect(frequencyLabel([4, 11])).toBe("Twice a year");
  });
});

describe("with today from the clock (moved clock)", () => {
  const today = businessToday();
  const thisMonth = Number(today.slice(5, 7));

  it("a task due in this month, never done, is due now; once done today it is due next year", () => {
    const task = { months: [thisMonth], lastDoneOn: null as string | null };
    const due = nextDueMonth(task, today);
    expect(due).toBe(monthOf(today));
    expect(dueState(due, today)).toBe("due");
    const after = nextDueMonth({ ...task, lastDoneOn: today }, today);
    expect(after.slice(0, 4)).toBe(String(Number(today.slice(0, 4)) + 1));
    expect(dueState(after, today)).toBe("later");
  });

  it("a quarterly task last done five months ago is due or overdue", () => {
    const task = { months: [1, 4, 7, 10], lastDoneOn: addDays(today, -150) };
    expect(["due", "overdue"]).toContain(dueState(nextDueMonth(task, today), today));
  });

  it("every home's plan has at least the plan's minimum of tasks", () => {
    expect(catalogTasksFor([]).length).toBeGreaterThanOrEqual(PLAN_MIN_TASKS);
    expect(catalogTasksFor(["water_heater"]).length).toBe(catalogTasksFor([]).length + 1);
    expect(new Set(PLAN_CATALOG.map((t) => t.key)).size).toBe(PLAN_CATALOG.length);
  });
});
