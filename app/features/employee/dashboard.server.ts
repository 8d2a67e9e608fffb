import type { RequestStatus } from "~/db/request-status";
import { listEmployees } from "~/features/accounts/index.server";
import { listEmployeeAppointments } from "~/features/appointments/index.server";
import { listCustomers } from "~/features/customers/index.server";
import { listIntroCallsForStaff } from "~/features/intro-calls/index.server";
import { activeMembershipsOf, membershipCounters } from "~/features/memberships/index.server";
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
import { normaliseSearch, pageParam } from "~/lib/query";
import { isUuid } from "~/lib/uuid";

/*
 * The employee dashboard (/employee): one screen over several domains. The requests, the
 * customers, the appointments, the intro calls and the memberships each answer their own part;
 * this module reads the URL into one query and puts the parts together for the page.
 */

/** What the dashboard's URL asks for; anything malformed reads as absent. */
export type DashboardQuery = {
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
};

export function parseDashboardQuery(params: URLSearchParams): DashboardQuery {
  const after = decodeCursor(params.get("after"));
  return {
    status: requestStatusSchema.safeParse(params.get("status")).data,
    search: normaliseSearch(params.get("q")),
    after,
    before: after ? undefined : decodeCursor(params.get("before")),
    requestId: params.get("request"),
    customerSearch: normaliseSearch(params.get("cq")),
    customerPage: pageParam(params, "cpage"),
    appointmentsView: params.get("appts") === "past" ? "past" : "upcoming",
    appointmentsPage: pageParam(params, "apage"),
  };
}

export type EmployeeDashboard = Awaited<ReturnType<typeof employeeDashboard>>;

/** Everything the dashboard shows for `query`, read in one parallel round of queries. */
export async function employeeDashboard(query: DashboardQuery, today = businessToday()) {
  const { status, search, requestId } = query;
  const [
    counters,
    requests,
    searchMatches,
    appointmentList,
    customers,
    employees,
    introCalls,
    detail,
    members,
  ] = await Promise.all([
    requestCounters(today),
    listRequests({ status, search, after: query.after, before: query.before }),
    search ? countMatchingRequests({ status, search }) : null,
    listEmployeeAppointments({
      when: query.appointmentsView,
      today,
      page: query.appointmentsPage,
    }),
    listCustomers({ search: query.customerSearch, page: query.customerPage, today }),
    listEmployees(),
    listIntroCallsForStaff({ limit: 50 }),
    isUuid(requestId) ? getRequestDetail(requestId) : Promise.resolve(null),
    membershipCounters(),
  ]);
  // What the filtered request list holds, for its heading: a status alone is a counter.
  const matching = searchMatches ?? (status ? counters[status] : counters.total);
  // Each customer's active membership, for the Customers tab and the request detail.
  const memberOf = await activeMembershipsOf([
    ...customers.customers.map((c) => c.userId),
    ...(detail ? [detail.customerId] : []),
  ]);

  return {
    today,
    counters: { ...counters, ...members },
    requests: {
      rows: requests.rows.map(({ cursor: _cursor, ...row }) => row),
      older: requests.older ? encodeCursor(requests.older) : null,
      newer: requests.newer ? encodeCursor(requests.newer) : null,
      status: status ?? null,
      search: search ?? "",
      matching,
    },
    appointments: {
      view: query.appointmentsView,
      ...appointmentList,
      page: query.appointmentsPage,
    },
    customers: {
      ...customers,
      customers: customers.customers.map((c) => ({
        ...c,
        membership: memberOf.get(c.userId) ?? null,
      })),
      search: query.customerSearch ?? "",
    },
    employees,
    introCalls,
    detail: detail ? { ...detail, membership: memberOf.get(detail.customerId) ?? null } : null,
    detailMissing: Boolean(requestId) && !detail,
  };
}
