/*
 * Appointment dates and times as customers read them (SPEC section 9: dates in long US form,
 * times in 12-hour form). Dates are calendar dates and times are wall-clock times in the
 * business time zone, so they are formatted as such, never shifted by the viewer's zone.
 */

const longDate = new Intl.DateTimeFormat("en-US", {
  weekday: "long",
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});

/** "2026-12-01" → "Tuesday, December 1, 2026" */
export function formatAppointmentDate(scheduledDate: string) {
  const [year, month, day] = scheduledDate.split("-").map(Number);
  return longDate.format(new Date(Date.UTC(year, month - 1, day)));
}

/** "14:30:00" → "2:30 PM" */
export function formatAppointmentTime(time: string) {
  const [hours, minutes] = time.split(":").map(Number);
  const suffix = hours >= 12 ? "PM" : "AM";
  const twelve = hours % 12 === 0 ? 12 : hours % 12;
  return `${twelve}:${String(minutes).padStart(2, "0")} ${suffix}`;
}
