import { useCallback, useState } from "react";
import { useLocation, useNavigate, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/employee";
import { listEmployeeAppointments } from "~/features/appointments/employee-appointments.server";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { ProfileMenu } from "~/features/accounts/components/profile-menu";
import { useSignOut } from "~/features/accounts/components/use-sign-out";
import { AppointmentsPanel } from "~/features/employee/components/appointments-panel";
import { CreateAppointmentDialog } from "~/features/employee/components/create-appointment-dialog";
import { AvailabilityLinks } from "~/features/availability/components/availability-links";
import { CustomersPanel } from "~/features/employee/components/customers-panel";
import { DashboardCounters } from "~/features/employee/components/dashboard-counters";
import { AppHeader } from "~/components/layout/app-header";
import { EmployeeHeader } from "~/features/employee/components/employee-header";
import { ProfilePhotoSection } from "~/features/employee/components/profile-photo-section";
import { RequestDetailDialog } from "~/features/employee/components/request-detail-dialog";
import { RequestsPanel, withParams } from "~/features/employee/components/requests-panel";
import { listCustomers, listEmployees } from "~/features/employee/customers.server";
import { listUpcomingIntroCalls } from "~/features/intro-calls/queries.server";
import { normaliseSearch } from "~/features/employee/requests";
import { requestStatusSchema } from "~/features/service-requests/schema";
import {
  decodeCursor,
  encodeCursor,
  countMatchingRequests,
  getRequestDetail,
  listRequests,
  requestCounters,
} from "~/features/employee/requests.server";
import { parseDashboardTab, type DashboardTab } from "~/features/employee/tabs";
import { businessToday } from "~/lib/business-calendar";
import { pageParam } from "~/lib/query";
import { isUuid } from "~/lib/uuid";
import { requireEmployee } from "~/lib/session.server";
import { activeMembershipsOf, membershipCounters } from "~/features/memberships/membership.server";

export async function loader({ request }: Route.LoaderArgs) {
  const employee = await requireEmployee(request);
  const url = new URL(request.url);
  const params = url.searchParams;
  const today = businessToday();

  const status = requestStatusSchema.safeParse(params.get("status")).data;
  const search = normaliseSearch(params.get("q"));
  const after = decodeCursor(params.get("after"));
  const before = after ? undefined : decodeCursor(params.get("before"));
  const requestId = params.get("request");
  const customerSearch = normaliseSearch(params.get("cq"));
  const appointmentsView: "upcoming" | "past" =
    params.get("appts") === "past" ? "past" : "upcoming";

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
    listRequests({ status, search, after, before }),
    search ? countMatchingRequests({ status, search }) : null,
    listEmployeeAppointments({
      when: appointmentsView,
      today,
      page: pageParam(params, "apage"),
    }),
    listCustomers({ search: customerSearch, page: pageParam(params, "cpage"), today }),
    listEmployees(),
    listUpcomingIntroCalls({ limit: 50 }),
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
    employee,
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
      view: appointmentsView,
      ...appointmentList,
      page: pageParam(params, "apage"),
    },
    customers: {
      ...customers,
      customers: customers.customers.map((c) => ({
        ...c,
        membership: memberOf.get(c.userId) ?? null,
      })),
      search: customerSearch ?? "",
    },
    employees,
    introCalls: introCalls.map((call) => ({
      id: call.id,
      name: call.name,
      email: call.email,
      phone: call.phone,
      startsAt: call.startsAt.toISOString(),
    })),
    detail: detail ? { ...detail, membership: memberOf.get(detail.customerId) ?? null } : null,
    detailMissing: Boolean(requestId) && !detail,
  };
}

/** Only the visible tab changed: the data on screen is still current. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const strip = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete("tab");
    params.sort();
    return params.toString();
  };
  if (strip(currentUrl) === strip(nextUrl)) return false;
  return defaultShouldRevalidate;
}

export function meta() {
  return [{ title: "Employee Dashboard" }];
}

export default function EmployeeDashboard({ loaderData: data }: Route.ComponentProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  // The header's 'Sign Out' reports a failure in the server's own words (SPEC section 8).
  const { signOut, pending: signingOut } = useSignOut();
  const tab = parseDashboardTab(new URLSearchParams(location.search).get("tab"));
  // Radix keeps every panel in the page, the hidden ones empty but still named after their tab.
  // Only the visible panel keeps its name, so a search by label ("Customer") finds the field
  // an employee can see rather than an empty, hidden "Customers" panel.
  const panelName = (value: DashboardTab) =>
    value === tab ? {} : { "aria-labelledby": undefined };
  const closeDetail = useCallback(
    () => navigate(withParams(location.search, { request: null }), { preventScrollReset: true }),
    [navigate, location.search],
  );

  return (
    <>
      <AppHeader width="max-w-6xl">
        <ProfileMenu
          user={data.employee}
          photoSection={
            <>
              <ProfilePhotoSection
                firstName={data.employee.firstName}
                email={data.employee.email}
                photoUrl={data.employee.profilePhotoUrl}
              />
              <AvailabilityLinks />
            </>
          }
        />
      </AppHeader>
      <main className="mx-auto grid max-w-6xl grid-cols-[minmax(0,1fr)] gap-6 px-4 py-6 sm:py-8">
        <EmployeeHeader
          onCreateAppointment={() => setCreating(true)}
          onSignOut={signOut}
          signingOut={signingOut}
        />
        <DashboardCounters counters={data.counters} />
        <Tabs
          className="min-w-0"
          value={tab}
          onValueChange={(tab) =>
            navigate(withParams(location.search, { tab: tab as DashboardTab }), {
              replace: true,
              preventScrollReset: true,
            })
          }
        >
          <TabsList aria-label="Dashboard sections" className="w-full sm:w-fit">
            <TabsTrigger value="requests">All Requests</TabsTrigger>
            <TabsTrigger value="appointments">Appointments</TabsTrigger>
            <TabsTrigger value="customers">Customers</TabsTrigger>
          </TabsList>
          <TabsContent value="requests" {...panelName("requests")}>
            <RequestsPanel data={data.requests} total={data.counters.total} />
          </TabsContent>
          <TabsContent value="appointments" {...panelName("appointments")}>
            <AvailabilityLinks />
            <AppointmentsPanel
              view={data.appointments.view}
              appointments={data.appointments.appointments}
              hasMore={data.appointments.hasMore}
              page={data.appointments.page}
              scheduledCount={data.counters.scheduledAppointments}
              introCalls={data.introCalls}
            />
          </TabsContent>
          <TabsContent value="customers" {...panelName("customers")}>
            <CustomersPanel
              customers={data.customers.customers}
              total={data.customers.total}
              allCustomers={data.customers.allCustomers}
              page={data.customers.page}
              pageCount={data.customers.pageCount}
              search={data.customers.search}
            />
          </TabsContent>
        </Tabs>
        <RequestDetailDialog detail={data.detail} onClose={closeDetail} />
        <CreateAppointmentDialog
          open={creating}
          onOpenChange={setCreating}
          employees={data.employees}
          today={data.today}
        />
      </main>
    </>
  );
}
