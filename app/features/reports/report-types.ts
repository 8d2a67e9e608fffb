import type { PlanId } from "~/content/plans";
import type { IsoDate } from "~/lib/business-calendar";
import type { Period } from "./period";

/*
 * The owner's report (issue 30): its shape, one part per section of the page. Every figure is an
 * integer of cents or minutes until the page formats it.
 */

export type PlanBilling = { plan: PlanId; planName: string; billing: "monthly" | "annual" };

export type MembersMonth = {
  month: IsoDate;
  /** Active on the first day of the month (cut to the period). */
  activeAtStart: number;
  newMembers: number;
  canceled: number;
  /** canceled / activeAtStart, in basis points (1 = 0.01%); null when no one was active. */
  churnBasisPoints: number | null;
  /** Monthly recurring revenue at the month's last day (cut to the period and today). */
  mrrCents: number;
};

export type RevenueMonth = {
  month: IsoDate;
  membershipCents: number;
  extraVisitCents: number;
  partsCents: number;
  shoppingFeeCents: number;
  /** The second handyman's fees charged (ADR 091); their reversals are corrections. */
  secondHandymanCents: number;
  correctionCents: number;
  /**
   * What cancels credited back (the ledger's `refund` entries: charges not earned, netted
   * against what the member owed), as a positive amount. Not money paid out: see refundCents.
   */
  creditCents: number;
  /** Every charge less the credits at cancels (corrections included). */
  netCents: number;
  /** Money received from members (payments), as a positive amount. */
  paymentCents: number;
  /** Refunds: money paid out to members (`refund_paid` entries), as a positive amount. */
  refundCents: number;
};

export type HoursMonth = {
  month: IsoDate;
  soldMinutes: number;
  /** Minutes set aside for the month's visits, less those released (canceled or moved out). */
  reservedMinutes: number;
  /** Minutes worked on the month's completed bank visits, their corrections included. */
  usedMinutes: number;
  refundedMinutes: number;
};

export type OwedByPlan = { plan: PlanId; planName: string; minutes: number; valueCents: number };

export type HandymanWeek = {
  /** The Monday of the week (its days cut to the period). */
  week: IsoDate;
  availableMinutes: number;
  bookedMinutes: number;
};

export type HandymanRow = {
  id: string;
  name: string;
  availableMinutes: number;
  bookedMinutes: number;
  /** Days with working hours in the period (not off, not closed). */
  workingDays: number;
  /** Member visits of the period (by the visit's day) completed. */
  completedVisits: number;
  /** Time worked on those visits (corrections applied). */
  workedMinutes: number;
  /** The blocks booked for those visits, beside workedMinutes. */
  workedBookedMinutes: number;
};

export type SalesMonth = {
  month: IsoDate;
  leads: number;
  introCalls: number;
  /** Walk-thrus booked in the month (by when they were booked), not canceled (ADR 061). */
  walkThrus: number;
  /** Membership offers sent in the month (issue 27). */
  offers: number;
  newMembers: number;
};

export type OwnerReport = {
  period: Pick<Period, "from" | "to">;
  /** The day the "as of" figures are for. */
  asOf: IsoDate;
  members: {
    active: (PlanBilling & { count: number; mrrCents: number })[];
    activeTotal: number;
    mrrCents: number;
    months: MembersMonth[];
    revenue: RevenueMonth[];
    revenueTotal: Omit<RevenueMonth, "month">;
  };
  hours: {
    owed: OwedByPlan[];
    owedMinutes: number;
    owedCents: number;
    months: HoursMonth[];
    completedVisits: number;
    averageWorkedMinutes: number | null;
  };
  handymen: {
    weeks: HandymanWeek[];
    people: HandymanRow[];
  };
  sales: { months: SalesMonth[] };
  /** Two handymen on one visit (ADR 091, 099): the period's visits, by the visit's day. */
  twoHandymen: {
    /** Visits of the period with two handymen, not canceled. */
    visits: number;
    /** The fees charged: how many, and their cents. */
    feesCharged: number;
    feesChargedCents: number;
    /** The fees' corrections: reversed (canceled, one handyman) less charged again. */
    correctionCents: number;
    /** What the fees came to: charged, less reversed, plus charged again. */
    feeCents: number;
  };
  parts: {
    pendingCount: number;
    pendingCents: number;
    decided: number;
    /** Average days from a part's request to the member's decision, in hundredths of a day. */
    averageDecisionHundredths: number | null;
    partsCount: number;
    partsCents: number;
    shoppingFeeCount: number;
    shoppingFeeCents: number;
  };
};
