/*
 * A specialist's trade and a referral's status (issue 41, ADR 088). The database checks both
 * lists (migration 0025); they live apart from schema.ts so the browser can read them.
 */
export const SPECIALIST_TRADES = [
  "plumber",
  "electrician",
  "hvac",
  "roofer",
  "pest_control",
  "other",
] as const;
export type SpecialistTrade = (typeof SPECIALIST_TRADES)[number];

export const TRADE_LABELS: Record<SpecialistTrade, string> = {
  plumber: "Plumber",
  electrician: "Electrician",
  hvac: "HVAC",
  roofer: "Roofer",
  pest_control: "Pest control",
  other: "Other",
};

export const REFERRAL_STATUSES = [
  "referred",
  "contacted",
  "scheduled",
  "done",
  "declined",
] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];

export const REFERRAL_STATUS_LABELS: Record<ReferralStatus, string> = {
  referred: "Referred",
  contacted: "Contacted",
  scheduled: "Scheduled",
  done: "Done",
  declined: "Declined",
};
