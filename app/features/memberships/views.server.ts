import { and, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { homes, profiles, user, type Membership } from "~/db/schema";
import { newActionKey } from "~/lib/action-keys.server";
import { pageParam } from "~/lib/query";
import { membershipPartVisits, membershipVisitPage } from "./statement.server";
import { refundSentence } from "./cancel.server";
import { membershipPage } from "./page.server";
import { currentMembership } from "./summary.server";
import type { MembershipView, StaffMembershipView } from "./types";
import { formatCents } from "~/lib/money";
import { personName } from "~/lib/names";

/*
 * What the membership pages show, shaped for the browser (dates as strings). The customer's
 * view is read by their own id only; staff's by the customer chosen in the URL.
 */

/** Statement lines a page: a three-year member's 1,000 entries never weigh on every page load. */
export const STATEMENT_PAGE_SIZE = 50;

/** `?spage=` as a page number: anything else is the first page. */
export function statementPageParam(url: URL) {
  return pageParam(url.searchParams, "spage");
}

/** `?vpage=` (staff's list of a membership's visits) as a page number. */
export function visitsPageParam(url: URL) {
  return pageParam(url.searchParams, "vpage");
}

export { membershipHasVisit } from "./statement.server";

async function build(
  customerId: string,
  statementPage = 1,
  current?: Membership | null,
): Promise<MembershipView | null> {
  const data = await membershipPage(
    customerId,
    statementPage,
    STATEMENT_PAGE_SIZE,
    undefined,
    current,
  );
  if (!data) return null;
  const { summary, statement, statementPage: page, parts, cancel } = data;
  return {
    summary,
    statement: statement.map((e) => ({ ...e, at: e.at.toISOString() })),
    statementPage: page,
    parts: parts.map((p) => ({ ...p, createdAt: p.createdAt.toISOString() })),
    cancel: cancel
      ? {
          key: newActionKey(),
          rule: cancel.rule,
          refundCents: cancel.refundCents,
          refundLabel: formatCents(cancel.refundCents),
          minutesRefunded: cancel.minutesRefunded,
          sentence: refundSentence(cancel, cancel.hourlyRate, cancel.guaranteeDays),
          futureVisitCount: cancel.futureVisitCount,
          settlement: cancel.settlement,
        }
      : null,
  };
}

/**
 * The signed-in customer's own membership (their latest), or null when they never had one.
 * `current`: their current membership row when the caller read it already (customerMembership).
 */
export async function customerMembershipView(
  customerId: string,
  statementPage = 1,
  current?: Membership | null,
) {
  return build(customerId, statementPage, current);
}

/** A customer's current membership row (their active one, or else their latest), or null. */
export async function customerMembership(customerId: string) {
  return currentMembership(customerId);
}

/** A customer's membership as staff see it (visits to complete, parts to record); null: no such customer. */
export async function staffMembershipView(
  customerId: string,
  statementPage = 1,
  visitsPage = 1,
): Promise<StaffMembershipView | null> {
  const [customer] = await db()
    .select({
      userId: user.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: user.email,
      phone: profiles.mobilePhone,
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
  const view = await build(customerId, statementPage);
  const membership = view
    ? await Promise.all([
        membershipVisitPage(view.summary.membershipId, visitsPage),
        membershipPartVisits(view.summary.membershipId),
      ]).then(([visits, partVisits]) => ({
        ...view,
        visits: visits.visits,
        visitsPage: visits.page,
        partVisits,
      }))
    : null;
  return {
    customer: {
      userId: customer.userId,
      name: personName(customer.firstName, customer.lastName) || customer.email,
      email: customer.email,
      phone: customer.phone,
      hasHome: Boolean(customer.homeId),
      address: customer.address ? `${customer.address}, ${customer.city}, ${customer.state}` : null,
    },
    membership,
  };
}
