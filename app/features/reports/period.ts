import {
  addDays,
  addMonths,
  calendarMonth,
  type IsoDate,
  plainDate,
} from "~/lib/business-calendar";

/*
 * The reports' period: one of the picker's choices, or a custom range, read from the page's GET
 * form (?period=...&from=...&to=...). Every figure is for whole calendar days in the business
 * time zone, from `from` to `to` inclusive.
 */

export const PERIOD_CHOICES = [
  { value: "this-month", label: "This month" },
  { value: "last-month", label: "Last month" },
  { value: "this-quarter", label: "This quarter" },
  { value: "last-12-months", label: "Last 12 months" },
  { value: "custom", label: "Custom range" },
] as const;
export type PeriodChoice = (typeof PERIOD_CHOICES)[number]["value"];

export const CUSTOM_RANGE_MESSAGE =
  "Please give a custom range as two dates, the first not after the second, at most 5 years apart";

export type Period = {
  choice: PeriodChoice;
  from: IsoDate;
  to: IsoDate;
  label: string;
  /** The first day of each calendar month the period touches, in order. */
  months: IsoDate[];
  /** Set when a custom range could not be read: the default period is shown instead. */
  error?: string;
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isRealDate(value: string) {
  if (!DATE.test(value)) return false;
  const [y, m, d] = value.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const monthName = new Intl.DateTimeFormat("en-US", {
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
function utc(date: IsoDate) {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}

/** "2026-03-01" -> "Mar 2026". */
export function monthLabel(monthStart: IsoDate) {
  return monthName.format(utc(monthStart));
}

export function monthsBetween(from: IsoDate, to: IsoDate) {
  const months: IsoDate[] = [];
  for (let m = calendarMonth(from).first; m <= to; m = addMonths(m, 1)) months.push(m);
  return months;
}

function make(choice: PeriodChoice, from: IsoDate, to: IsoDate, error?: string): Period {
  return {
    choice,
    from,
    to,
    label: `${plainDate(from, { month: "short" })} to ${plainDate(to, { month: "short" })}`,
    months: monthsBetween(from, to),
    ...(error ? { error } : {}),
  };
}

/** The period the page's query string asks for, as of the business day `today`. */
export function periodFrom(params: URLSearchParams, today: IsoDate): Period {
  const choice = (PERIOD_CHOICES.find((c) => c.value === params.get("period"))?.value ??
    "this-month") as PeriodChoice;
  const month = calendarMonth(today);
  switch (choice) {
    case "last-month": {
      const last = calendarMonth(addMonths(month.first, -1));
      return make(choice, last.first, last.last);
    }
    case "this-quarter": {
      const [y, m] = today.split("-").map(Number);
      const first = `${y}-${String(m - ((m - 1) % 3)).padStart(2, "0")}-01`;
      return make(choice, first, addDays(addMonths(first, 3), -1));
    }
    case "last-12-months":
      return make(choice, addMonths(month.first, -11), month.last);
    case "custom": {
      const from = params.get("from") ?? "";
      const to = params.get("to") ?? "";
      if (
        isRealDate(from) &&
        isRealDate(to) &&
        from <= to &&
        addMonths(calendarMonth(from).first, 60) >= to &&
        from >= "2000-01-01"
      ) {
        return make(choice, from, to);
      }
      return make("this-month", month.first, month.last, CUSTOM_RANGE_MESSAGE);
    }
    default:
      return make("this-month", month.first, month.last);
  }
}

/** The query string of a period, for links (the CSV downloads) that keep it. */
export function periodQuery(period: Pick<Period, "choice" | "from" | "to">) {
  const params = new URLSearchParams({ period: period.choice });
  if (period.choice === "custom") {
    params.set("from", period.from);
    params.set("to", period.to);
  }
  return params.toString();
}
