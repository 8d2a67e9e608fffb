/*
 * The database's answer when a handyman would hold two overlapping visits: the exclusion
 * constraint appointments_no_double_booking (migration 0003_booking_availability, docs/decisions/021) raises
 * SQLSTATE 23P01. Whoever books (staff, a member, two servers at once) hears the same words.
 */
export const DOUBLE_BOOKING_MESSAGE =
  "That handyman already has a visit at that time. Please choose another time or another handyman.";

export function isDoubleBooking(error: unknown): boolean {
  let current: unknown = error;
  while (current && typeof current === "object") {
    if ((current as { code?: string }).code === "23P01") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
