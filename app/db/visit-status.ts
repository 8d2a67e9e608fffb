/*
 * The states of a visit (an appointment), docs/design.md decision 17 and ADR 046. The database enum
 * `appointment_status` (schema.ts) is built from this list; the transitions between them live
 * in app/features/visits/visit-state.ts, and the migration's trigger refuses the same ones.
 * Kept apart from schema.ts so that the browser can read it without loading Drizzle.
 */
export const VISIT_STATUSES = [
  "booked",
  "on_the_way",
  "in_progress",
  "completed",
  "canceled",
  "no_show",
] as const;
export type VisitStatus = (typeof VISIT_STATUSES)[number];

/** A visit still ahead or under way: it holds the handyman's time and its requests. */
export const OPEN_VISIT_STATUSES = [
  "booked",
  "on_the_way",
  "in_progress",
] as const satisfies VisitStatus[];

/** The visits that hold their handyman's time (the exclusion constraint of migration 0008). */
export const BUSY_VISIT_STATUSES = [
  "booked",
  "on_the_way",
  "in_progress",
  "completed",
] as const satisfies VisitStatus[];

/** A visit that has ended: nothing about it changes any more. */
export const FINAL_VISIT_STATUSES = [
  "completed",
  "canceled",
  "no_show",
] as const satisfies VisitStatus[];

export const TASK_OUTCOMES = ["done", "not_done"] as const;
export type TaskOutcome = (typeof TASK_OUTCOMES)[number];
