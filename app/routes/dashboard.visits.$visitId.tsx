import { AppHeader } from "~/components/layout/app-header";
import { Link, useNavigation } from "react-router";
import type { Route } from "./+types/dashboard.visits.$visitId";
import { buttonVariants } from "~/components/ui/button-variants";
import { ProfileMenu } from "~/features/accounts/components/profile-menu";
import { StaffHeader } from "~/features/employee/components/staff-header";
import { CancelVisit } from "~/features/visits/components/cancel-visit";
import { MoveVisit, StaffMove } from "~/features/visits/components/move-visit";
import { SecondHandymanForm } from "~/features/visits/components/second-handyman-form";
import { VisitDetails } from "~/features/visits/components/visit-details";
import { VisitReportSection } from "~/features/visits/components/visit-report";
import { useBusiness } from "~/lib/business";
import { type VisitAnswer, visitAction, visitPageLoader } from "./dashboard.visits.$visitId.server";

/*
 * One visit: its details, 'Move Visit' (day, then start time) and 'Cancel Visit' for the member
 * up to 24 hours before the start, for staff always; later, 'Call us'. Plain forms throughout.
 */

export async function loader(args: Route.LoaderArgs) {
  return visitPageLoader(args);
}

export async function action(args: Route.ActionArgs) {
  return visitAction(args);
}

export function meta() {
  return [{ title: "Your Visit" }];
}

export default function VisitPage({ loaderData: d, actionData }: Route.ComponentProps) {
  const business = useBusiness();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const back = d.isEmployee ? "/employee?tab=appointments" : "/dashboard?tab=schedule";
  const answered = actionData as VisitAnswer | undefined;
  const warnings = answered?.warnings ?? [];
  // Moved or canceled just now: the answer says so, and the time picker the form was on closes.
  const done = answered?.ok ? answered.message : null;
  return (
    <>
      {d.user.isEmployee ? (
        <StaffHeader employee={d.user} width="max-w-2xl" />
      ) : (
        <AppHeader width="max-w-2xl">
          <ProfileMenu user={d.user} />
        </AppHeader>
      )}
      <main className="mx-auto grid max-w-2xl gap-4 px-4 py-6 sm:py-8">
        <h1 className="text-2xl font-bold sm:text-3xl">
          {d.isEmployee ? `Visit for ${d.visit.customerName}` : "Your Visit"}
        </h1>
        {d.booked ? (
          <p
            role="status"
            className="rounded-md border border-green-600/40 bg-green-600/10 px-4 py-3"
          >
            Your visit is booked! A confirmation with a calendar file is on its way.
          </p>
        ) : null}
        {done ? (
          <p
            role="status"
            className="rounded-md border border-green-600/40 bg-green-600/10 px-4 py-3"
          >
            {done}
          </p>
        ) : null}
        {answered && !answered.ok && answered.message && !warnings.length ? (
          <p
            role="alert"
            className="rounded-md border border-destructive/40 bg-destructive/10 px-4 py-3 text-destructive"
          >
            {answered.message}
          </p>
        ) : null}
        <VisitDetails
          visit={d.visit}
          isEmployee={d.isEmployee}
          second={d.second}
          overrides={d.overrides}
          hasReport={Boolean(d.report)}
        />

        {d.report ? <VisitReportSection report={d.report} /> : null}

        {d.visit.status === "booked" && !d.mayChange ? (
          <section
            className="grid gap-2 rounded-lg border bg-card p-4"
            aria-label="Change this visit"
          >
            <p>This visit starts in less than 24 hours. To move or cancel it, please call us.</p>
            <a
              href={business.phoneHref}
              className={buttonVariants({ className: "w-full sm:w-fit" })}
            >
              Call us {business.phone}
            </a>
          </section>
        ) : null}

        {d.mayChange ? (
          <section
            className="grid gap-3 rounded-lg border bg-card p-4"
            aria-label="Move this visit"
          >
            <MoveVisit
              moving={d.moving}
              done={done}
              days={d.days}
              day={d.day}
              second={d.second}
              busy={busy}
            />
            {d.isEmployee ? (
              <StaffMove
                date={answered?.values?.date ?? d.visit.date}
                startTime={answered?.values?.startTime ?? d.startTime}
                employeeId={answered?.values ? answered.values.employeeId : d.assignedEmployeeId}
                employees={d.employees}
                warnings={warnings}
                busy={busy}
              />
            ) : null}
            {d.secondHandymanKey ? (
              <SecondHandymanForm
                secondId={d.second?.id ?? null}
                firstId={d.assignedEmployeeId}
                employees={d.employees}
                feeCents={business.secondHandymanFeeCents}
                actionKey={d.secondHandymanKey}
                busy={busy}
              />
            ) : null}
            <CancelVisit
              visitId={d.visit.id}
              confirm={d.confirmCancel}
              returns={d.cancelReturns}
              busy={busy}
            />
          </section>
        ) : null}
        <Link
          to={back}
          className={buttonVariants({ variant: "outline", className: "w-full sm:w-fit" })}
        >
          Back to the dashboard
        </Link>
      </main>
    </>
  );
}
