import { type IsoDate } from "~/lib/business-calendar";

/*
 * When a plan task is due (ADR 087). A task is due in the months of the year it lists; it is
 * due in the first of those months after the month it was last done in, or, never done, in the
 * first of them from the plan's month on. A month is a date on its first day ("2027-04-01").
 * "Due" means its month has come: this month or an earlier one (overdue).
 */

export type Month = IsoDate;

export function monthOf(date: IsoDate): Month {
  return `${date.slice(0, 7)}-01`;
}

function monthParts(month: Month) {
  return { year: Number(month.slice(0, 4)), month: Number(month.slice(5, 7)) };
}

function monthFrom(year: number, month: number): Month {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-01`;
}

/** The first month in `months` (1-12) on or after `from`. */
export function firstDueMonthFrom(months: readonly number[], from: Month): Month {
  const { year, month } = monthParts(from);
  const sorted = [...new Set(months)].filter((m) => m >= 1 && m <= 12).sort((a, b) => a - b);
  if (sorted.length === 0) throw new Error("a plan task needs at least one month");
  const sameYear = sorted.find((m) => m >= month);
  return sameYear ? monthFrom(year, sameYear) : monthFrom(year + 1, sorted[0]!);
}

export function nextMonth(month: Month): Month {
  const { year, month: m } = monthParts(month);
  return m === 12 ? monthFrom(year + 1, 1) : monthFrom(year, m + 1);
}

/**
 * The month a task is next due. Done: the first due month after the month it was done in.
 * Never done: the first due month from `since` (the plan's start, or today) on.
 */
export function nextDueMonth(
  task: { months: readonly number[]; lastDoneOn: IsoDate | null },
  since: IsoDate,
): Month {
  if (task.lastDoneOn) return firstDueMonthFrom(task.months, nextMonth(monthOf(task.lastDoneOn)));
  return firstDueMonthFrom(task.months, monthOf(since));
}

export type DueState = "overdue" | "due" | "later";

/** Overdue (its month has passed), due (this month) or later. */
export function dueState(nextDue: Month, today: IsoDate): DueState {
  const current = monthOf(today);
  if (nextDue < current) return "overdue";
  if (nextDue === current) return "due";
  return "later";
}

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

export function monthName(month: number) {
  return MONTH_NAMES[month - 1] ?? "";
}

/** "April 2027". */
export function monthLabel(month: Month) {
  const { year, month: m } = monthParts(month);
  return `${monthName(m)} ${year}`;
}

/** How often, in words, from the months it is due. */
export function frequencyLabel(months: readonly number[]) {
  const count = new Set(months).size;
  if (count >= 12) return "Monthly";
  if (count === 6) return "Every 2 months";
  if (count === 4) return "Every 3 months";
  if (count === 3) return "3 times a year";
  if (count === 2) return "Twice a year";
  if (count === 1) return "Once a year";
  return `${count} times a year`;
}

/** "January, April, July, October". */
export function monthsLabel(months: readonly number[]) {
  return [...new Set(months)]
    .sort((a, b) => a - b)
    .map(monthName)
    .join(", ");
}
