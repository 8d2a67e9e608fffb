/*
 * The request statuses (docs/design.md decision 1), in the order the Status select lists them. The
 * database enum `request_status` (schema.ts) is built from this list, so the two cannot drift;
 * it lives apart from schema.ts so that the browser can read it without loading Drizzle.
 */
export const REQUEST_STATUSES = ["new", "reviewed", "scheduled", "complete"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** A request still waiting for a visit to be planned: the "open requests" staff see. */
export const OPEN_REQUEST_STATUSES = ["new", "reviewed"] as const satisfies RequestStatus[];
