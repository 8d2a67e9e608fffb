import {
  FINAL_VISIT_STATUSES,
  OPEN_VISIT_STATUSES,
  VISIT_STATUSES,
  type VisitStatus,
} from "~/db/visit-status";

/*
 * A visit's life (docs/design.md decision 17, ADR 046): booked, on the way, in progress, then
 * completed, canceled or no-show. This table is the one list of allowed changes; the trigger
 * `appointments_visit_life` (migration 0008) refuses the same ones in the database, and
 * tests/integration/visit-life.test.ts checks every pair against both.
 */

export { FINAL_VISIT_STATUSES, OPEN_VISIT_STATUSES, VISIT_STATUSES, type VisitStatus };

export const VISIT_TRANSITIONS: Record<VisitStatus, readonly VisitStatus[]> = {
  booked: ["on_the_way", "in_progress", "completed", "canceled", "no_show"],
  on_the_way: ["in_progress", "completed", "canceled", "no_show"],
  // Work has begun: it ends completed (with the tasks not done back on the list).
  in_progress: ["completed"],
  completed: [],
  canceled: [],
  no_show: [],
};

export function mayTransition(from: VisitStatus, to: VisitStatus) {
  return VISIT_TRANSITIONS[from].includes(to);
}

export function isOpenVisit(status: VisitStatus) {
  return (OPEN_VISIT_STATUSES as readonly VisitStatus[]).includes(status);
}

export function isFinalVisit(status: VisitStatus) {
  return (FINAL_VISIT_STATUSES as readonly VisitStatus[]).includes(status);
}

/** How every screen names a state. */
export const VISIT_STATUS_LABELS: Record<VisitStatus, string> = {
  booked: "Scheduled",
  on_the_way: "On the way",
  in_progress: "In progress",
  completed: "Completed",
  canceled: "Canceled",
  no_show: "No-show",
};

/** Why a change is refused, worded for the person who asked. */
export function refusalMessage(from: VisitStatus, to: VisitStatus) {
  if (from === "completed")
    return to === "canceled"
      ? "This visit is completed and cannot be canceled."
      : "This visit is completed and cannot be changed.";
  if (from === "canceled") return "This visit is already canceled.";
  if (from === "no_show") return "This visit was marked a no-show and cannot be changed.";
  if (from === "in_progress" && to === "canceled")
    return "This visit is in progress and cannot be canceled.";
  return `A visit that is ${VISIT_STATUS_LABELS[from].toLowerCase()} cannot become ${VISIT_STATUS_LABELS[to].toLowerCase()}.`;
}

const monthDay = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  month: "long",
  day: "numeric",
});

/**
 * A task already on another upcoming visit (issue 40 item 3): shown with the visit's day, not
 * offered. "on your visit of December 2".
 */
export function onVisitLabel(date: string) {
  const [y, m, d] = date.split("-").map(Number);
  return `on your visit of ${monthDay.format(new Date(Date.UTC(y, m - 1, d)))}`;
}
