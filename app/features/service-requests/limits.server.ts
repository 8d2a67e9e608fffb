import { hit } from "~/lib/rate-limit.server";

/**
 * Service requests one customer may create in an hour (ADR 022): far more than a household
 * writes down, few enough that a script cannot fill the employees' list.
 */
export const MAX_REQUESTS_PER_HOUR = 20;
const HOUR_MS = 60 * 60_000;

/** Counts one new request by `customerId`; refused past the hourly limit. */
export function limitRequestCreation(customerId: string) {
  return hit(`service-requests:customer:${customerId}`, MAX_REQUESTS_PER_HOUR, HOUR_MS);
}
