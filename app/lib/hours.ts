/*
 * Every hours figure people read, in the words of the Plan tab's meter (ADR 081): a duration
 * in hours and minutes ("12 h 15 min"), a bank that is never "-1 h -18 min" but "18 min booked
 * ahead of payment", and the meter itself ("7 h paid, 2 h left now"). Times are integer minutes.
 */

/**
 * 735 -> "12 h 15 min", 2520 -> "42 h", 45 -> "45 min", 0 -> "0 min"; a change keeps its sign:
 * -78 -> "-1 h 18 min". With `hours: "always"` the hours are said even when none, as a
 * handyman's week reads: 45 -> "0 h 45 min", 0 -> "0 h".
 */
export function hoursText(minutes: number, { hours: say = "when-any" } = {}) {
  const sign = minutes < 0 ? "-" : "";
  const m = Math.abs(Math.round(minutes));
  const h = Math.floor(m / 60);
  const rest = m % 60;
  const hours = h.toLocaleString("en-US");
  const always = say === "always";
  if ((h || always) && rest) return `${sign}${hours} h ${rest} min`;
  if (h || always) return `${sign}${hours} h`;
  return `${sign}${rest} min`;
}

/** What a bank holds: "2 h 30 min", or "18 min booked ahead of payment" below zero. */
export function hoursBalanceText(minutes: number) {
  return minutes < 0 ? `${hoursText(-minutes)} booked ahead of payment` : hoursText(minutes);
}

/**
 * What is left in a bank: "2 h left" ("2 h left now" with `now`), or "18 min booked ahead of
 * payment" below zero.
 */
export function hoursLeftText(minutes: number, now = false) {
  return minutes < 0
    ? `${hoursText(-minutes)} booked ahead of payment`
    : `${hoursText(minutes)} left${now ? " now" : ""}`;
}

/** The meter's words: "17 h 30 min paid, 2 h left now" / "1 h 27 min paid, 18 min booked ahead of payment". */
export function hoursMeterText(paidMinutes: number, minutesLeft: number) {
  return `${hoursText(paidMinutes)} paid, ${hoursLeftText(minutesLeft, true)}`;
}
