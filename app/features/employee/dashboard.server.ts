import type { RequestStatus } from "~/db/request-status";
import { listEmployees } from "~/features/accounts/index.server";
import { listEmployeeAppointments } from "~/features/visits/index.server";
import { listCustomers } from "~/features/customers/index.server";
import { listIntroCallsForStaff } from "~/features/intro-calls/index.server";
import {
  leadFunnel,
  listLeads,
  parseLeadsQuery,
  type LeadsQuery,
} from "~/features/leads/index.server";
import {
  activeMembershipsOf,
  membershipCounters,
  pastDueMemberships,
} from "~/features/memberships/index.server";
import { refundsToPay } from "~/features/payments/index.server";
import { requestStatusSchema } from "~/features/service-requests";
import {
  countMatchingRequests,
  decodeCursor,
  encodeCursor,
  getRequestDetail,
  listRequests,
  requestCounters,
  type RequestCursor,
} from "~/features/service-requests/index.server";
import { businessToday } from "~/lib/business-calendar";
import { parseDashboardTab, type DashboardTab } from "./tabs";
import { normaliseSearch, pageParam } from "~/lib/query";
import { isUuid } from "~/lib/uuid";

/*
 * The employee dashboard (/employee): one screen over several domains. The requests, the
 * customers, the appointments, the intro calls and the memberships each answer their own part;
 * this module reads the URL into one query and puts the parts together for the page.
 */

/** What the dashboard's URL asks for; anything malformed reads as absent. */
export type DashboardQuery = {
  /** The tab shown: only its list is read (the others are read when they are opened). */
  tab: DashboardTab;
  /** All Requests: filter, search and keyset page. */
  status?: RequestStatus;
  search?: string;
  after?: RequestCursor;
  before?: RequestCursor;
  /** The request whose detail dialog is open (`?request=`), as it came. */
  requestId: string | null;
  /** Customers: search and page. */
  customerSearch?: string;
  customerPage: number;
  /** Appointments: upcoming or past, and page. */
  appointmentsView: "upcoming" | "past";
  appointmentsPage: number;
  /** Leads: status filter, search and page. */
  leads: LeadsQuery;
};

export function parseDashboardQuery(params: URLSearchParams): DashboardQuery {
  const after = decodeCursor(params.get("after"));
  return {
    tab: parseDashboardTab(params.get("tab")),
    status: requestStatusSchema.safeParse(params.get("status")).data,
    search: normaliseSearch(params.get("q")),
    after,
    before: after ? undefined : decodeCursor(params.get("before")),
    requestId: params.get("request"),
    customerSearch: normaliseSearch(params.get("cq")),
    customerPage: pageParam(params, "cpage"),
    appointmentsView: params.get("appts") === "past" ? "past" : "upcoming",
    appointmentsPage: pageParam(params, "apage"),
    leads: parseLeadsQuery(params),
  };
}

export type EmployeeDashboard = Awaited<ReturnType<typeof employeeDashboard>>;

/**
 * What the dashboard shows for `query`, read in one parallel round of queries: the counters,
 * the request detail and the appointment dialog's staff list on every tab, and the list of the
 * tab shown only (a tab's list is read when the tab is opened; the page never renders the
 * others).
 */
export async function employeeDashboard(query: DashboardQuery, now = new Date()) {
  const { tab, status, search, requestId } = query;
  const today = businessToday(now);
  const [
    counters,
    members,
    employees,
    detail,
    requests,
    searchMatches,
    appointments,
    customers,
    leads,
    owedRefunds,
    pastDue,
  ] = await Promise.all([
    requestCounters(today),
    membershipCounters(),
    listEmployees(),
    isUuid(requestId) ? getRequestDetail(requestId) : null,
    tab === "requests"
      ? listRequests({ status, search, after: query.after, before: query.before })
      : null,
    tab === "requests" && search ? countMatchingRequests({ status, search }) : null,
    tab === "appointments"
      ? Promise.all([
          listEmployeeAppointments({
            when: query.appointmentsView,
            today,
            page: query.appointmentsPage,
          }),
          listIntroCallsForStaff({ limit: 50, now }),
        ])
      : null,
    tab === "customers"
      ? listCustomers({ search: query.customerSearch, page: query.customerPage, today })
      : null,
    tab === "leads"
      ? Promise.all([listLeads(query.leads), leadFunnel(now)]).then(([list, funnel]) => ({
          ...list,
          funnel,
        }))
      : null,
    // 'Refunds to pay' (issue 27, item 5): what the office owes by check, cash or transfer, for
    // every customer, above the Customers tab's list.
    tab === "customers" ? refundsToPay() : null,
    // 'Past due' beside it (issue 39 item 7): memberships with a balance overdue, with its age.
    tab === "customers" ? pastDueMemberships(today) : null,
  ]);
  // Each customer's active membership, for the Customers tab and the request detail.
  const customerIds = [
    ...(customers?.customers.map((c) => c.userId) ?? []),
    ...(detail ? [detail.customerId] : []),
  ];
  const memberOf = await activeMembershipsOf(customerIds);
  const membershipOf = (userId: string) => memberOf.get(userId) ?? null;

  return {
    tab,
    today,
    counters: { ...counters, ...members },
    requests: requests && {
      rows: requests.rows.map(({ cursor: _cursor, ...row }) => row),
      older: requests.older ? encodeCursor(requests.older) : null,
      newer: requests.newer ? encodeCursor(requests.newer) : null,
      status: status ?? null,
      search: search ?? "",
      // What the filtered list holds, for its heading: a status alone is a counter.
      matching: searchMatches ?? (status ? counters[status] : counters.total),
    },
    appointments: appointments && {
      view: query.appointmentsView,
      ...appointments[0],
      page: query.appointmentsPage,
      introCalls: appointments[1],
    },
    customers: customers && {
      ...customers,
      refundsToPay: (owedRefunds ?? []).map((r) => ({
        id: r.id,
        customerId: r.customerId,
        customerName: r.customerName,
        amountCents: r.amountCents,
        since: businessToday(r.createdAt),
      })),
      pastDue: (pastDue ?? []).map((r) => ({
        membershipId: r.membershipId,
        customerId: r.customerId,
        customerName: r.customerName,
        owedCents: r.owedCents,
        unpaidSince: r.unpaidSince,
        ageDays: r.ageDays,
        byCard: r.byCard,
        bookingWaitsFrom: r.bookingWaitsFrom,
      })),
      customers: customers.customers.map((c) => ({ ...c, membership: membershipOf(c.userId) })),
      search: query.customerSearch ?? "",
    },
    leads,
    employees,
    detail: detail ? { ...detail, membership: membershipOf(detail.customerId) } : null,
    detailMissing: Boolean(requestId) && !detail,
  };
}
