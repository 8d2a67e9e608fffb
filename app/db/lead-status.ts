/*
 * The states of a lead on the staff 'Leads' tab (ADR 060). The database enum `lead_status`
 * (schema.ts) is built from this list; kept apart from schema.ts so the browser can read it.
 */
export const LEAD_STATUSES = ["new", "contacted", "walk_thru_booked", "member", "lost"] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  new: "New",
  contacted: "Contacted",
  walk_thru_booked: "Walk-thru booked",
  member: "Member",
  lost: "Lost",
};

/** What a visit is: a member's visit (the default) or a free in-home walk-thru (ADR 061). */
export const VISIT_KINDS = ["visit", "walk_thru"] as const;
export type VisitKind = (typeof VISIT_KINDS)[number];
