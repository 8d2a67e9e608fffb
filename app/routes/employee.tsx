import { useCallback, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/employee";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { useSignOut } from "~/features/accounts/components/use-sign-out";
import { AvailabilityLinks } from "~/features/availability/components/availability-links";
import { AppointmentsPanel } from "~/features/employee/components/appointments-panel";
import { CreateAppointmentDialog } from "~/features/visits/components/staff-booking-dialog";
import { CustomersPanel } from "~/features/employee/components/customers-panel";
import { DashboardCounters } from "~/features/employee/components/dashboard-counters";
import { EmployeeHeader } from "~/features/employee/components/employee-header";
import { StaffHeader } from "~/features/employee/components/staff-header";
import { RequestDetailDialog } from "~/features/employee/components/request-detail-dialog";
import { RequestsPanel, withParams } from "~/features/employee/components/requests-panel";
import { employeeDashboard, parseDashboardQuery } from "~/features/employee/dashboard.server";
import { LeadsPanel } from "~/features/leads/components/leads-panel";
import { RefundsToPay } from "~/features/payments";
import { PastDueList } from "~/features/memberships";
import type { DashboardTab } from "~/features/employee/tabs";
import { requireEmployee } from "~/lib/session.server";
import { PlansDueList } from "~/features/home";
import { plansDuePage } from "~/features/home/index.server";
import { pageParam } from "~/lib/query";

/**
 * Only the tab shown has its list read and sent: opening another tab is a navigation that reads
 * that tab's list (and the counters again), so the panel and its data always come together.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const query = parseDashboardQuery(params);
  const employee = await requireEmployee(request);
  const dashboard = await employeeDashboard(query);
  // The office's 'Plans due' (ADR 087) sits on the Customers tab.
  const plans =
    dashboard.tab === "customers" ? await plansDuePage(pageParam(params, "ppage")) : null;
  return { employee, plans, ...dashboard };
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
  const { tab } = data;
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
      <StaffHeader employee={data.employee} />
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
            <TabsTrigger value="leads">Leads</TabsTrigger>
          </TabsList>
          <TabsContent value="requests" {...panelName("requests")}>
            {data.requests && <RequestsPanel data={data.requests} total={data.counters.total} />}
          </TabsContent>
          <TabsContent value="appointments" {...panelName("appointments")}>
            {data.appointments && (
              <>
                <AvailabilityLinks />
                <AppointmentsPanel
                  view={data.appointments.view}
                  appointments={data.appointments.appointments}
                  hasMore={data.appointments.hasMore}
                  page={data.appointments.page}
                  scheduledCount={data.counters.scheduledAppointments}
                  introCalls={data.appointments.introCalls}
                />
              </>
            )}
          </TabsContent>
          <TabsContent value="customers" {...panelName("customers")}>
            {data.customers && <RefundsToPay refunds={data.customers.refundsToPay} />}
            {data.customers && <PastDueList rows={data.customers.pastDue} today={data.today} />}
            {data.plans && <PlansDueList {...data.plans} />}
            {data.customers && (
              <CustomersPanel
                customers={data.customers.customers}
                total={data.customers.total}
                allCustomers={data.customers.allCustomers}
                page={data.customers.page}
                pageCount={data.customers.pageCount}
                search={data.customers.search}
              />
            )}
          </TabsContent>
          <TabsContent value="leads" {...panelName("leads")}>
            {data.leads && <LeadsPanel data={data.leads} />}
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
