import { listUpcomingAppointments, nextWalkThruOf } from "~/features/visits/visit-lists.server";
import type { CustomerAppointment } from "~/features/visits/types";
import { type MemberPaymentsView } from "~/features/payments";
import { memberPaymentsView } from "~/features/payments/index.server";
import type { MembershipView } from "~/features/memberships/types";
import { customerMembershipView, statementPageParam } from "~/features/memberships/views.server";
import {
  customerRequestsById,
  listCustomerRequestPages,
  type ListPageNumbers,
} from "~/features/service-requests/service-requests.server";
import { LIST_PAGE_PARAMS } from "~/features/service-requests/list-pages";
import type { CustomerRequest, CustomerRequestLists } from "~/features/service-requests/types";
import { pageParam } from "~/lib/query";
import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { logger } from "~/lib/logger.server";
import { prepared } from "~/db/prepared.server";
import type { Database } from "~/db/client.server";
import {
  homePlanTasks,
  homes,
  memberships,
  profiles,
  specialistReferrals,
  user,
  type Membership,
} from "~/db/schema";
import { tableRowsFromJson } from "~/db/rows";
import { UUID_PATTERN } from "~/lib/uuid";
import { type SessionUser } from "~/lib/session.server";
import { businessToday } from "~/lib/business-calendar";
import { meterTextOf } from "~/features/memberships/index.server";
import { dashboardParts, dashboardTab, type DashboardTab } from "./dashboard-tabs";
import { type HomeRecordView } from "~/features/home";
import { memberHomeRecord, openDuePlanRequests } from "~/features/home/index.server";
import { type HandymanCard } from "~/features/handymen";
import { handymanCard } from "~/features/handymen/index.server";
import { type MemberReferralView } from "~/features/specialists";
import { referralsOf } from "~/features/specialists/index.server";

/**
 * What the member's dashboard shows (ADR 100): what every tab shows (her handyman, her referrals,
 * the hours meter) and what the tab asked for. A part left undefined was not read for this tab:
 * switching to a tab that shows it reads the page again (`shouldRevalidate`).
 */
export type DashboardData = {
  tab: DashboardTab;
  /** The hours meter's words while the membership is active, else null. */
  meter: string | null;
  /** Her dedicated handyman (ADR 088). */
  handyman: HandymanCard | null;
  /** The specialists she was referred to (ADR 088). */
  referrals: MemberReferralView[];
  /** Requests and Completed, and a request opened by ?edit=. */
  requests?: { lists: CustomerRequestLists; editing: CustomerRequest | null };
  /** Appointments and Schedule. */
  appointments?: CustomerAppointment[];
  /**
   * Membership: the bank, the statement and the payments card; without an active membership,
   * her next walk-thru already booked (the plans are offered, the walk-thru not again).
   */
  membership?: {
    view: MembershipView | null;
    payments: MemberPaymentsView | null;
    walkThru: { scheduledDate: string; startTime: string } | null;
  };
  /** My Home: the home's record (ADR 087). */
  home?: HomeRecordView | null;
};

const NO_REQUESTS: CustomerRequestLists = {
  next: { items: [], page: 1, pages: 1, total: 0 },
  later: { items: [], page: 1, pages: 1, total: 0 },
  completed: { items: [], page: 1, pages: 1, total: 0 },
};

/** The page of each list the URL asks for (?npage=, ?lpage=, ?cpage=); the first by default. */
function listPages(url: URL): ListPageNumbers {
  return {
    next: pageParam(url.searchParams, LIST_PAGE_PARAMS.next),
    later: pageParam(url.searchParams, LIST_PAGE_PARAMS.later),
    completed: pageParam(url.searchParams, LIST_PAGE_PARAMS.completed),
  };
}

async function loadRequests(customerId: string, url: URL) {
  const requests = await listCustomerRequestPages(customerId, listPages(url));
  const editId = url.searchParams.get("edit");
  const shown = [requests.next, requests.later, requests.completed].some((list) =>
    list.items.some((item) => item.id === editId),
  );
  const editing =
    editId && !shown && UUID_PATTERN.test(editId)
      ? ((await customerRequestsById(customerId, [editId])).get(editId) ?? null)
      : null;
  return { lists: requests, editing };
}

/**
 * What every tab shows, in one statement: her current membership row (her active one, or else
 * her latest, as `customerMembership` reads it), her dedicated handyman, and whether she has any
 * referral (most members have none; their list is read only when she has). With `planTasks`
 * (the tabs that open the plan's due tasks first, ADR 087), her homes' plan tasks too, in the
 * home record's order (My Home draws them from here, not reading them again).
 */
function prepareBasics(database: Database, planTasks: boolean) {
  const handyman = alias(profiles, "handyman");
  const customerId = sql.placeholder("customerId");
  const tasks = planTasks
    ? sql<
        Record<string, unknown>[]
      >`(select coalesce(json_agg(t order by t.created_at, t.title), '[]'::json)
        from ${homePlanTasks} t inner join ${homes} h on h.id = t.home_id
        where h.customer_id = ${user.id} and t.removed_at is null)`
    : sql<null>`null`;
  return database
    .select({
      planTasks: tasks,
      membership: memberships,
      handyman: {
        id: handyman.userId,
        firstName: handyman.firstName,
        lastName: handyman.lastName,
        photoUrl: handyman.profilePhotoUrl,
      },
      hasReferrals: sql<boolean>`exists (select 1 from ${specialistReferrals} where ${specialistReferrals.customerId} = ${user.id})`,
    })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .leftJoin(
      memberships,
      eq(
        memberships.id,
        sql`(select m.id from ${memberships} m where m.customer_id = ${user.id}
          order by m.status = 'active' desc, m.created_at desc limit 1)`,
      ),
    )
    .leftJoin(
      handyman,
      and(eq(handyman.userId, profiles.dedicatedHandymanId), eq(handyman.isEmployee, true)),
    )
    .where(eq(user.id, customerId))
    .prepare(planTasks ? "dashboard_basics_plan" : "dashboard_basics");
}

export async function memberBasics(customerId: string, withPlanTasks = false) {
  const [row] = withPlanTasks
    ? await prepared("dashboard_basics_plan", (d) => prepareBasics(d, true)).execute({ customerId })
    : await prepared("dashboard_basics", (d) => prepareBasics(d, false)).execute({ customerId });
  return {
    planTasks: row?.planTasks ? tableRowsFromJson(homePlanTasks, row.planTasks) : undefined,
    membership: row?.membership ?? null,
    handyman: row?.handyman ? handymanCard(row.handyman) : null,
    referrals: row?.hasReferrals
      ? await referralsOf(customerId).catch(logged("the referrals", []))
      : [],
  };
}

function logged<T>(what: string, fallback: T) {
  return (error: Error) => {
    logger.error({ err: error.message }, `loading ${what} failed`);
    return fallback;
  };
}

async function loadMembership(customerId: string, url: URL, current: Promise<Membership | null>) {
  const [view, payments] = await Promise.all([
    current
      .then((m) => customerMembershipView(customerId, statementPageParam(url), m))
      .catch(logged("the membership", null)),
    current.then((m) => memberPaymentsView(customerId, m)).catch(logged("the payments", null)),
  ]);
  // The walk-thru shows only beside the plans, offered while no membership is active.
  const walkThru =
    view?.summary.status === "active"
      ? null
      : await nextWalkThruOf(customerId).catch(logged("the walk-thru", null));
  return { view, payments, walkThru };
}

/** Fetch errors are logged and leave their part empty (docs/product.md section 8). */
export async function loadDashboard(user: SessionUser, url: URL): Promise<DashboardData> {
  const customerId = user.id;
  const tab = dashboardTab(url.searchParams);
  const parts = dashboardParts(tab, url.searchParams);
  // The membership row is read once: the meter, and the membership and payments panels.
  const openPlan = parts.requests || parts.home;
  const basics = memberBasics(customerId, openPlan).catch(
    logged("the membership, the handyman and the referrals", {
      planTasks: undefined,
      membership: null,
      handyman: null,
      referrals: [],
    }),
  );
  // The plan's tasks due this month or overdue join the lists first (ADR 087).
  if (openPlan)
    await basics
      .then((b) => openDuePlanRequests(customerId, undefined, undefined, b.planTasks))
      .catch(logged("the plan's due tasks", 0));
  const current = basics.then((b) => b.membership);
  const skip = Promise.resolve(undefined);
  const [meter, { handyman, referrals }, requests, appointments, membership, home] =
    await Promise.all([
      current
        .then((m) => (m?.status === "active" ? meterTextOf(m, businessToday()) : null))
        .catch(logged("the membership", null)),
      basics,
      parts.requests
        ? loadRequests(customerId, url).catch(
            logged("service requests", { lists: NO_REQUESTS, editing: null }),
          )
        : skip,
      parts.appointments
        ? listUpcomingAppointments(customerId).catch(logged("appointments", []))
        : skip,
      parts.membership ? loadMembership(customerId, url, current) : skip,
      parts.home
        ? basics
            .then((b) => memberHomeRecord(user, url.searchParams.get("label"), b.planTasks))
            .catch(logged("the home's record", null))
        : skip,
    ]);
  return { tab, meter, handyman, referrals, requests, appointments, membership, home };
}
