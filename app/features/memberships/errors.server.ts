/** Refusals of the membership rules: the message is shown as is, and nothing was written. */

/** A rule refused the change; the message is shown as is. Nothing was written. */
export class MembershipRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MembershipRejectedError";
  }
}

export const ALREADY_MEMBER = "This customer already has an active membership.";
export const NO_HOME = "The customer needs a home address before a membership can start.";
export const NOT_FOUND = "Membership not found.";

/** A visit cannot be booked as asked; the reason is worded for the person booking. */
export class VisitSpendRefusedError extends MembershipRejectedError {
  constructor(message: string) {
    super(message);
    this.name = "VisitSpendRefusedError";
  }
}
