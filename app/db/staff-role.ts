/** An employee's role (ADR 047): office staff see everything, a handyman their own visits. */
export const STAFF_ROLES = ["office", "handyman"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  office: "Office staff",
  handyman: "Handyman",
};
