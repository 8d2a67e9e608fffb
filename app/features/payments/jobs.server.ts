import { handlePaymentJobs, type OutboxPayloads } from "~/lib/outbox.server";
import { applyEvent } from "./events.server";
import { endSubscription, sendRefundToCard } from "./refunds.server";
import { refundDuplicate, type DuplicatePayment } from "./duplicates.server";
import {
  runPastDueCheck,
  runReconciliation,
  runRenewalEnd,
  runRenewalNotice,
  runScheduledCharge,
  setEndMembership,
  type EndMembership,
} from "./schedule.server";

/*
 * The payments jobs, run by the outbox worker (ADR 055): a job that throws is retried with the
 * outbox's backoff; each job is safe to run again (see each function).
 */
export async function runPaymentJob(payload: OutboxPayloads["payment_job"], now = new Date()) {
  const p = payload as Record<string, string>;
  switch (payload.job) {
    case "event":
      return applyEvent(p.eventId, now);
    case "refund":
      return sendRefundToCard(p.refundId);
    case "charge":
      return runScheduledCharge(p.key, p.membershipId, now);
    case "renewal_notice":
      return runRenewalNotice(
        p.key,
        p.membershipId,
        p.periodStart,
        typeof payload.days === "number" ? payload.days : undefined,
      );
    case "renewal_end":
      return runRenewalEnd(p.key, p.membershipId, p.periodStart, now);
    case "end_subscription":
      return endSubscription(p.subscriptionId);
    case "duplicate":
      return refundDuplicate(p.key, payload as unknown as DuplicatePayment);
    case "reconcile":
      return runReconciliation(p.key, now);
    case "past_due":
      return runPastDueCheck(p.key);
    default:
      throw new Error(`unknown payments job ${payload.job}`);
  }
}

/**
 * Lets this process's outbox worker run the payments jobs. `endMembership` is the memberships
 * feature's cancel (cancelOwnMembership), given by the start-up that composes the features.
 */
export function registerPaymentJobs(workflows: { endMembership: EndMembership }) {
  setEndMembership(workflows.endMembership);
  handlePaymentJobs((payload) => runPaymentJob(payload));
}
