/** What the payments components show (plain data from the loaders). */
export type OfferSummary = {
  id: string;
  planName: string;
  billing: "monthly" | "annual";
  startDate: string;
  priceCents: number;
  minutesPerYear: number;
  visitsPerYear: number;
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
  /** The day booking starts waiting for the payment. */
  bookingWaitsFrom: string | null;
};
