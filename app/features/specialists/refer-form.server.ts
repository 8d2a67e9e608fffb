import { and, desc, eq, ne } from "drizzle-orm";
import { db } from "~/db/client.server";
import { appointments, serviceRequests } from "~/db/schema";
import { longDate } from "~/lib/business-calendar";
import { TRADE_LABELS } from "~/db/specialist-trade";
import { ALREADY_DONE, FORM_OUT_OF_DATE, isActionKey } from "~/lib/action-keys.server";
import { isUuid } from "~/lib/uuid";
import { createReferral, ReferralRejectedError, type ReferralSource } from "./referrals.server";
import { firstIssue, referralSchema } from "./schema";
import { listSpecialists } from "./specialists.server";

/** The specialists a referral form offers: "Decatur Plumbing Co. (Plumber)". */
export async function specialistOptions() {
  return (await listSpecialists()).map((s) => ({
    id: s.id,
    label: `${s.company} (${TRADE_LABELS[s.trade]})`,
  }));
}

/**
 * A posted 'Refer a specialist' (from 'Today', the customer's page or a request): a handyman
 * refers from his own visits only; office staff from any. Answered in words.
 */
export async function referFromForm(
  values: Record<string, string | undefined>,
  actor: { id: string; isHandyman: boolean },
  options: { customerId?: string } = {},
): Promise<{ ok: boolean; message: string }> {
  const key = values.key;
  if (!isActionKey(key)) return { ok: false, message: FORM_OUT_OF_DATE };
  const parsed = referralSchema.safeParse(values);
  if (!parsed.success) return { ok: false, message: firstIssue(parsed.error) };
  // The customer's page names the job in one select: "visit:<id>" or "request:<id>".
  const [jobKind, jobId] = (values.job ?? "").split(":");
  if (jobKind === "visit") values = { ...values, appointmentId: jobId };
  if (jobKind === "request") values = { ...values, serviceRequestId: jobId };
  const source: ReferralSource | null = isUuid(values.appointmentId ?? "")
    ? { appointmentId: values.appointmentId! }
    : isUuid(values.serviceRequestId ?? "")
      ? { serviceRequestId: values.serviceRequestId! }
      : null;
  if (!source) return { ok: false, message: "Please choose a visit or a request." };
  if (actor.isHandyman) {
    if (!("appointmentId" in source)) return { ok: false, message: "This is for office staff." };
    const [own] = await db()
      .select({ id: appointments.id })
      .from(appointments)
      .where(
        and(
          eq(appointments.id, source.appointmentId),
          eq(appointments.assignedEmployeeId, actor.id),
        ),
      );
    if (!own) return { ok: false, message: "This visit is not on your schedule." };
  }
  try {
    const created = await createReferral(
      {
        source,
        specialistId: parsed.data.specialistId,
        reason: parsed.data.reason,
        newWaterOrPower: values.newWaterOrPower === "1",
        customerId: options.customerId,
      },
      actor.id,
      key,
    );
    if (!created) return { ok: true, message: ALREADY_DONE };
    return {
      ok: true,
      message: `Referred to ${created.specialist.company}. The member sees it on her dashboard.`,
    };
  } catch (error) {
    if (error instanceof ReferralRejectedError) return { ok: false, message: error.message };
    throw error;
  }
}

/** The jobs of a member a referral can come from: her latest visits and her open requests. */
export async function referralJobs(customerId: string) {
  const [visits, requests] = await Promise.all([
    db()
      .select({ id: appointments.id, date: appointments.scheduledDate })
      .from(appointments)
      .where(
        and(
          eq(appointments.customerId, customerId),
          eq(appointments.kind, "visit"),
          ne(appointments.status, "canceled"),
        ),
      )
      .orderBy(desc(appointments.scheduledDate))
      .limit(10),
    db()
      .select({ id: serviceRequests.id, title: serviceRequests.title })
      .from(serviceRequests)
      .where(
        and(eq(serviceRequests.customerId, customerId), ne(serviceRequests.status, "complete")),
      )
      .orderBy(desc(serviceRequests.createdAt))
      .limit(20),
  ]);
  return [
    ...visits.map((v) => ({ value: `visit:${v.id}`, label: `Visit of ${longDate(v.date)}` })),
    ...requests.map((r) => ({ value: `request:${r.id}`, label: `Request: ${r.title}` })),
  ];
}
