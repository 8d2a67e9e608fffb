import type { VisitBlock } from "~/features/availability/slots";
import { durationLabel } from "~/lib/business-calendar";

/**
 * What a visit will spend, shown before 'Confirm Visit'. The hours bank (memberships) answers
 * 'Uses 3 h 30 min of 12 h 15 min left' or the extra-visit charge once it is merged in.
 */
export async function visitSpendSummary(_customerId: string, block: VisitBlock) {
  return `Uses ${durationLabel(block)} of your hours`;
}
