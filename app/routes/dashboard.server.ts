import { listUpcomingAppointments } from "~/features/visits/visit-lists.server";
import type { CustomerAppointment } from "~/features/visits/types";
import { type MemberPaymentsView } from "~/features/payments";
import { memberPaymentsView } from "~/features/payments/index.server";
import type { MembershipView } from "~/features/memberships/types";
import {
  customerMembership,
  customerMembershipView,
  statementPageParam,
} from "~/features/memberships/views.server";
import {
  customerRequestsById,
  listCustomerRequestPages,
  type ListPageNumbers,
} from "~/features/service-requests/service-requests.server";
import { LIST_PAGE_PARAMS } from "~/features/service-requests/list-pages";
import type { CustomerRequest, CustomerRequestLists } from "~/features/service-requests/types";
import { pageParam } from "~/lib/query";
import { logger } from "~/lib/logger.server";
import { UUID_PATTERN } from "~/lib/uuid";
import { type SessionUser } from "~/lib/session.server";
import { type HomeRecordView } from "~/features/home";
import { memberHomeRecord, openDuePlanRequests } from "~/features/home/index.server";
import { type HandymanCard } from "~/features/handymen";
import { dedicatedHandymanOf } from "~/features/handymen/index.server";
import { type MemberReferralView } from "~/features/specialists";
import { referralsOf } from "~/features/specialists/index.server";

export type DashboardData = {
  /** The 'My Home' tab: the home's record (ADR 087). */
  home: HomeRecordView | null;
  requests: CustomerRequestLists;
  /** The request named by ?edit= when it is on none of the pages shown (a link, a reload). */
  editing: CustomerRequest | null;
  appointments: CustomerAppointment[];
  membership: MembershipView | null;
  payments: MemberPaymentsView | null;
  /** Her dedicated handyman (ADR 088). */
  handyman: HandymanCard | null;
  /** The specialists she was referred to (ADR 088). */
  referrals: MemberReferralView[];
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
  return { requests, editing };
}

/** Fetch errors are logged and leave their list empty (SPEC section 8). */
export async function loadDashboard(user: SessionUser, url: URL): Promise<DashboardData> {
  const customerId = user.id;
  // The plan's tasks due this month or overdue join the lists first (ADR 087).
  await openDuePlanRequests(customerId).catch((error: Error) =>
    logger.error({ err: error.message }, "opening the plan's due tasks failed"),
  );
  // The membership panel and the payments panel share one read of the current membership.
  const current = customerMembership(customerId);
  const [{ requests, editing }, appointments, membership, payments, handyman, referrals, home] =
    await Promise.all([
      loadRequests(customerId, url).catch((error: Error) => {
        logger.error({ err: error.message }, "loading service requests failed");
        return { requests: NO_REQUESTS, editing: null };
      }),
      listUpcomingAppointments(customerId).catch((error: Error) => {
        logger.error({ err: error.message }, "loading appointments failed");
        return [];
      }),
      current
        .then((m) => customerMembershipView(customerId, statementPageParam(url), m))
        .catch((error: Error) => {
          logger.error({ err: error.message }, "loading the membership failed");
          return null;
        }),
      current
        .then((m) => memberPaymentsView(customerId, m))
        .catch((error: Error) => {
          logger.error({ err: error.message }, "loading the payments failed");
          return null;
        }),
      dedicatedHandymanOf(customerId).catch((error: Error) => {
        logger.error({ err: error.message }, "loading the dedicated handyman failed");
        return null;
      }),
      referralsOf(customerId).catch((error: Error) => {
        logger.error({ err: error.message }, "loading the referrals failed");
        return [];
      }),
      memberHomeRecord(user, url.searchParams.get("label")).catch((error: Error) => {
        logger.error({ err: error.message }, "loading the home's record failed");
        return null;
      }),
    ]);
  return { home, requests, editing, appointments, membership, payments, handyman, referrals };
}
