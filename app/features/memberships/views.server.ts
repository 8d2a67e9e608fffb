import { and, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { homes, profiles, user } from "~/db/schema";
import { formatCents } from "./bank";
import {
  membershipPartsList,
  membershipStatement,
  membershipVisitList,
  memberBankSummary,
  previewCancellation,
  refundSentence,
} from "./membership.server";
import type { BankSummary, MembershipView, StaffMembershipView } from "./types";

/*
 * What the membership pages show, shaped for the browser (dates as strings). The customer's
 * view is read by their own id only; staff's by the customer chosen in the URL.
 */

async function build(summary: BankSummary): Promise<MembershipView> {
  const [statement, parts, cancel] = await Promise.all([
    membershipStatement(summary.membershipId),
    membershipPartsList(summary.membershipId),
    summary.status === "active" ? previewCancellation(summary.membershipId) : null,
  ]);
  return {
    summary,
    statement: statement.map((e) => ({ ...e, at: e.at.toISOString() })),
    parts: parts.map((p) => ({ ...p, createdAt: p.createdAt.toISOString() })),
    cancel: cancel
      ? {
          rule: cancel.rule,
          refundCents: cancel.refundCents,
          refundLabel: formatCents(cancel.refundCents),
          minutesRefunded: cancel.minutesRefunded,
          sentence: refundSentence(cancel, cancel.hourlyRate, cancel.guaranteeDays),
          futureVisitCount: cancel.futureVisitCount,
        }
      : null,
  };
}

/** The signed-in customer's own membership (their latest), or null when they never had one. */
export async function customerMembershipView(customerId: string) {
  const summary = await memberBankSummary(customerId);
  return summary ? build(summary) : null;
}

/** A customer's membership as staff see it (visits to complete, parts to record); null: no such customer. */
export async function staffMembershipView(customerId: string): Promise<StaffMembershipView | null> {
  const [customer] = await db()
    .select({
      userId: user.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: user.email,
      phone: profiles.phone,
      homeId: homes.id,
      address: homes.address,
      city: homes.city,
      state: homes.state,
    })
    .from(profiles)
    .innerJoin(user, eq(user.id, profiles.userId))
    .leftJoin(homes, eq(homes.customerId, profiles.userId))
    .where(and(eq(profiles.userId, customerId), eq(profiles.isEmployee, false)));
  if (!customer) return null;
  const summary = await memberBankSummary(customerId);
  const membership = summary
    ? { ...(await build(summary)), visits: await membershipVisitList(summary.membershipId) }
    : null;
  return {
    customer: {
      userId: customer.userId,
      name: [customer.firstName, customer.lastName].filter(Boolean).join(" ") || customer.email,
      email: customer.email,
      phone: customer.phone,
      hasHome: Boolean(customer.homeId),
      address: customer.address ? `${customer.address}, ${customer.city}, ${customer.state}` : null,
    },
    membership,
  };
}
