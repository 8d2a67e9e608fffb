import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { db, type DbOrTx, type Tx } from "~/db/client.server";
import {
  appointments,
  appointmentTasks,
  homes,
  profiles,
  requestPhotos,
  serviceRequests,
  specialistReferrals,
  specialists,
  user,
} from "~/db/schema";
import {
  REFERRAL_STATUS_LABELS,
  TRADE_LABELS,
  type ReferralStatus,
  type SpecialistTrade,
} from "~/db/specialist-trade";
import { claimActionKey } from "~/lib/action-keys.server";
import { formatPhone } from "~/lib/phone";
import {
  mailReferralToMember,
  mailReferralToSpecialist,
  referralFeeLine,
} from "./referral-mail.server";
import type { MemberReferralView } from "./types";
import { personName } from "~/lib/names";

/*
 * Referrals (issue 41, item 6; ADR 088): a handyman (or the office) refers the member to a
 * specialist from a visit or a request, with the reason and the photos of the job. The member
 * sees each on her dashboard with its status and the specialist's contact; once she agrees,
 * the specialist gets the job by e-mail (once: the consent is written once).
 */

export class ReferralRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReferralRejectedError";
  }
}

export const UNKNOWN_SPECIALIST = "Please choose a specialist from the list.";
export const UNKNOWN_JOB = "Please choose a visit or a request of this member.";

/** Where a referral comes from: a visit (its tasks' requests) or one request. */
export type ReferralSource = { appointmentId: string } | { serviceRequestId: string };

/** The member, the request (if one) and the photos of a visit or a request. */
async function jobOf(tx: DbOrTx, source: ReferralSource) {
  if ("appointmentId" in source) {
    const [visit] = await tx
      .select({ customerId: appointments.customerId })
      .from(appointments)
      .where(eq(appointments.id, source.appointmentId));
    if (!visit?.customerId) return null;
    const tasks = await tx
      .select({ requestId: appointmentTasks.serviceRequestId })
      .from(appointmentTasks)
      .where(eq(appointmentTasks.appointmentId, source.appointmentId));
    const requestIds = tasks.map((t) => t.requestId).filter((id): id is string => Boolean(id));
    return {
      customerId: visit.customerId,
      appointmentId: source.appointmentId,
      serviceRequestId: requestIds.length === 1 ? requestIds[0] : null,
      photoIds: await photosOf(tx, requestIds),
    };
  }
  const [request] = await tx
    .select({ customerId: serviceRequests.customerId })
    .from(serviceRequests)
    .where(eq(serviceRequests.id, source.serviceRequestId));
  if (!request) return null;
  return {
    customerId: request.customerId,
    appointmentId: null,
    serviceRequestId: source.serviceRequestId,
    photoIds: await photosOf(tx, [source.serviceRequestId]),
  };
}

async function photosOf(tx: DbOrTx, requestIds: string[]) {
  if (!requestIds.length) return [];
  const rows = await tx
    .select({ id: requestPhotos.id })
    .from(requestPhotos)
    .where(inArray(requestPhotos.requestId, requestIds))
    .orderBy(requestPhotos.uploadedAt)
    .limit(20);
  return rows.map((r) => r.id);
}

/** The number of photos a referral from `source` would carry (shown on the form). */
export async function photosCarried(source: ReferralSource) {
  return (await jobOf(db(), source))?.photoIds.length ?? 0;
}

/**
 * 'Refer a specialist', once per form (its key, ADR 048): the referral with the job's photos,
 * and the member's e-mail, in one transaction. Null when the form was already applied.
 */
export async function createReferral(
  input: {
    source: ReferralSource;
    specialistId: string;
    reason: string;
    newWaterOrPower?: boolean;
    /** When given, the referral must be this member's (a form of her page). */
    customerId?: string;
  },
  referredBy: string,
  key: string,
  database: DbOrTx = db(),
) {
  return database.transaction(async (tx) => {
    const [specialist] = await tx
      .select()
      .from(specialists)
      .where(and(eq(specialists.id, input.specialistId), eq(specialists.active, true)));
    if (!specialist) throw new ReferralRejectedError(UNKNOWN_SPECIALIST);
    const job = await jobOf(tx, input.source);
    if (!job || (input.customerId && job.customerId !== input.customerId))
      throw new ReferralRejectedError(UNKNOWN_JOB);
    if (!(await claimActionKey(tx, { key, actorId: referredBy, action: "refer-specialist" })))
      return null;
    const [created] = await tx
      .insert(specialistReferrals)
      .values({
        specialistId: specialist.id,
        customerId: job.customerId,
        appointmentId: job.appointmentId,
        serviceRequestId: job.serviceRequestId,
        reason: input.reason,
        photoIds: job.photoIds,
        newWaterOrPower: input.newWaterOrPower ?? false,
        referredBy,
      })
      .returning();
    await mailReferralToMember(tx, created, specialist);
    return { ...created, specialist };
  });
}

/** The member's referrals, newest first (her dashboard's 'Referrals'). */
export async function referralsOf(customerId: string, database: DbOrTx = db()) {
  const rows = await database
    .select({ referral: specialistReferrals, specialist: specialists })
    .from(specialistReferrals)
    .innerJoin(specialists, eq(specialists.id, specialistReferrals.specialistId))
    .where(eq(specialistReferrals.customerId, customerId))
    .orderBy(desc(specialistReferrals.createdAt))
    .limit(50);
  return rows.map(({ referral: r, specialist: s }): MemberReferralView => ({
    id: r.id,
    status: r.status,
    statusLabel: REFERRAL_STATUS_LABELS[r.status],
    reason: r.reason,
    createdAt: r.createdAt.toISOString(),
    consentAt: r.consentAt?.toISOString() ?? null,
    photoCount: r.photoIds.length,
    feeLine: referralFeeLine(s.company, s.referralFeeCents),
    specialist: {
      company: s.company,
      trade: TRADE_LABELS[s.trade as SpecialistTrade],
      contactName: s.contactName,
      phone: s.phone ? formatPhone(s.phone) : null,
      email: s.email,
      licenseNumber: s.licenseNumber,
      referralFeeCents: s.referralFeeCents,
    },
  }));
}

/**
 * The member agrees that the specialist gets the job: written once (a second post finds the
 * consent given and sends nothing), with the specialist's e-mail in the same transaction.
 */
export async function consentToReferral(customerId: string, referralId: string) {
  return db().transaction(async (tx) => {
    const [given] = await tx
      .update(specialistReferrals)
      .set({ consentAt: new Date() })
      .where(
        and(
          eq(specialistReferrals.id, referralId),
          eq(specialistReferrals.customerId, customerId),
          isNull(specialistReferrals.consentAt),
        ),
      )
      .returning();
    if (!given) return false;
    await sendJobToSpecialist(tx, given);
    return true;
  });
}

async function sendJobToSpecialist(tx: Tx, referral: typeof specialistReferrals.$inferSelect) {
  const [row] = await tx
    .select({
      specialist: specialists,
      email: user.email,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      phone: profiles.mobilePhone,
      address: sql<
        string | null
      >`${homes.address} || ', ' || ${homes.city} || ', ' || ${homes.state} || ' ' || ${homes.zipCode}`,
    })
    .from(specialists)
    .innerJoin(user, eq(user.id, referral.customerId))
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .leftJoin(homes, eq(homes.customerId, user.id))
    .where(eq(specialists.id, referral.specialistId));
  if (!row?.specialist.email) return;
  await mailReferralToSpecialist(tx, {
    to: row.specialist.email,
    company: row.specialist.company,
    memberName: personName(row.firstName, row.lastName) || row.email,
    memberEmail: row.email,
    memberPhone: row.phone ? formatPhone(row.phone) : null,
    address: row.address,
    reason: referral.reason,
    photoCount: referral.photoIds.length,
    newWaterOrPower: referral.newWaterOrPower,
  });
}

/** The office's list of referrals with their status, newest first. */
export async function staffReferrals(database: DbOrTx = db()) {
  const rows = await database
    .select({
      id: specialistReferrals.id,
      status: specialistReferrals.status,
      reason: specialistReferrals.reason,
      createdAt: specialistReferrals.createdAt,
      consentAt: specialistReferrals.consentAt,
      customerId: specialistReferrals.customerId,
      company: specialists.company,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
    })
    .from(specialistReferrals)
    .innerJoin(specialists, eq(specialists.id, specialistReferrals.specialistId))
    .leftJoin(profiles, eq(profiles.userId, specialistReferrals.customerId))
    .orderBy(desc(specialistReferrals.createdAt))
    .limit(100);
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    reason: r.reason,
    createdAt: r.createdAt.toISOString(),
    consented: r.consentAt !== null,
    customerId: r.customerId,
    company: r.company,
    memberName: personName(r.firstName, r.lastName) || "A member",
  }));
}

/** The office sets a referral's status ('Contacted', 'Scheduled', 'Done', 'Declined'). */
export async function setReferralStatus(referralId: string, status: ReferralStatus) {
  const [updated] = await db()
    .update(specialistReferrals)
    .set({ status })
    .where(eq(specialistReferrals.id, referralId))
    .returning({ id: specialistReferrals.id });
  return Boolean(updated);
}
