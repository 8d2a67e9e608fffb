/*
 * The visits feature's refusal, its words and who asks (ADR 090, 094): a module of their own,
 * so booking (create-visit.server.ts), moving and canceling (change-visit.server.ts) and the
 * visit's life (visit-life.server.ts) share them without importing each other.
 */

export class VisitRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "VisitRejectedError";
  }
}

export type Actor = { id: string; isEmployee: boolean };

export const SLOT_TAKEN_MESSAGE = "That time was just taken. Please choose another time.";
export const SLOT_UNAVAILABLE_MESSAGE = "That time is not available. Please choose another time.";
export const TOO_LATE_MESSAGE =
  "This visit starts in less than 24 hours and can no longer be changed online. Please call us.";
export const REQUEST_BOOKED_MESSAGE = "A chosen task is already on another upcoming visit.";
export const COMPLETED_NOT_MOVED_MESSAGE = "This visit is completed and cannot be moved.";
export const INSIDE_CLOSURE_MESSAGE =
  "That time is inside the closure being saved. Please choose another time.";
export const MEMBERS_ONLY_MESSAGE =
  "Booking visits is part of a membership. See the plans on the Membership tab.";
export const SAME_HANDYMAN_TWICE_MESSAGE = "The second handyman must be another than the first.";
