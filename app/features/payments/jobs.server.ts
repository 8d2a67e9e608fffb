import { handlePaymentJobs, type OutboxPayloads } from "~/lib/outbox.server";
import { applyEvent } from "./events.server";
import { sendRefundToCard } from "./refunds.server";
import { runReconciliation, runRenewalNotice, runScheduledCharge } from "./schedule.server";

/*
 * The payments jobs, run by the outbox worker (ADR 055): a job that throws is retried with the
 * outbox's backoff; each job is safe to run again (see each function).
 */
export async function runPaymentJob(payload: OutboxPayloads["payment_job"]) {
  const p = payload as Record<string, string>;
  switch (payload.job) {
    case "event":
      return applyEvent(p.eventId);
    case "refund":
      return sendRefundToCard(p.refundId);
    case "charge":
      return runScheduledCharge(p.key, p.membershipId);
    case "renewal_notice":
      return runRenewalNotice(p.key, p.membershipId, p.periodStart);
    case "reconcile":
      return runReconciliation(p.key);
    default:
      throw new Error(`unknown payments job ${payload.job}`);
  }
}

/** Lets this process's outbox worker run the payments jobs. */
export function registerPaymentJobs() {
  handlePaymentJobs(runPaymentJob);
}
