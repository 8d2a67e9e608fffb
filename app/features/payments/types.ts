/** What the payments components show (plain data from the loaders). */
export type OfferSummary = {
  id: string;
  planName: string;
  billing: "monthly" | "annual";
  startDate: string;
  priceCents: number;
  minutesPerYear: number;
  visitsPerYear: number;
  /**
   * The member chose 'Start membership' on this offer while cards are not taken: the office
   * will call them, and the page says so instead of offering the button again.
   */
  callAsked: boolean;
};

export type StaffPaymentsView = {
  takesCards: boolean;
  /** No active membership: an offer can be sent. */
  canOffer: boolean;
  offer: OfferSummary | null;
  refundsToPay: { id: string; amountCents: number; customerName: string }[];
};

export type MemberPaymentsView = {
  takesCards: boolean;
  offer: OfferSummary | null;
  /** The active membership is collected by Stripe: 'Manage card'. */
  cardOnFile: boolean;
  pastDueSince: string | null;
  /**
   * 'Past due' on a membership the office collects by hand (no card processor): what is owed
   * and how to pay it; null otherwise.
   */
  pastDueByHand: { owedCents: number; howToPay: string } | null;
  /** The day booking starts waiting for the payment. */
  bookingWaitsFrom: string | null;
  /** An active annual membership's next renewal and the member's choice for it. */
  renewal: RenewalSummary | null;
  /** The idempotency key of this page's forms (ADR 048): a double tap is applied once. */
  formKey: string;
};

export type RenewalSummary = {
  date: string;
  planName: string;
  yearCents: number;
  monthCents: number;
  minutesPerYear: number;
  visitsPerYear: number;
  choice: "monthly" | "cancel" | null;
};
