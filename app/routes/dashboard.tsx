import { useEffect, useState } from "react";
import {
  useNavigate,
  useRevalidator,
  useSearchParams,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import type { Route } from "./+types/dashboard";
import { AppHeader } from "~/components/layout/app-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { ProfileMenu } from "~/features/accounts/components/profile-menu";
import { AppointmentsTab } from "~/features/visits/components/upcoming-visits-tab";
import { MembershipTab } from "~/features/memberships/components/membership-tab";
import { CHECKOUT_DONE_MESSAGE, MemberPayments } from "~/features/payments";
import { ScheduleTab } from "~/features/visits/components/schedule-tab";
import { CompletedTab } from "~/features/service-requests/components/completed-tab";
import { RequestDialog } from "~/features/service-requests/components/request-dialog";
import { RequestsTab } from "~/features/service-requests/components/requests-tab";
import { LIST_PAGE_PARAMS } from "~/features/service-requests/list-pages";
import { requireCustomer, type SessionUser } from "~/lib/session.server";
import { HomeRecord } from "~/features/home";
import { YourHandyman } from "~/features/handymen";
import { MemberReferrals } from "~/features/specialists";
import { PageNotices } from "~/features/service-requests/components/page-notices";
import { dialogState } from "~/features/service-requests/components/request-dialog-state";
import { loadDashboard, type DashboardData } from "./dashboard.server";
import { dashboardAction, type MembershipAnswer } from "./dashboard.action.server";
import { dashboardTab, needsNewParts } from "./dashboard-tabs";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCustomer(request);
  const dashboard = loadDashboard(user, new URL(request.url));
  // A page load waits for the lists: the HTML is complete, also without JavaScript (streamed
  // parts need a script to show). A navigation inside the app streams them instead, behind
  // 'Loading your dashboard...'. Browsers that do not say what they fetch get the full page.
  const inAppNavigation = request.headers.get("sec-fetch-dest") === "empty";
  return { user, dashboard: inAppNavigation ? dashboard : await dashboard };
}

/** The forms whose answer shows on the payments card rather than in the membership's own place. */
const PAYMENT_INTENTS = new Set([
  "start-membership",
  "manage-card",
  "renewal-monthly",
  "renewal-cancel",
  "renewal-keep",
]);

/** The member's membership forms (dashboard.action.server.ts). */
export async function action(args: Route.ActionArgs) {
  return dashboardAction(args);
}

/** Query parameters that choose what the loader reads: a page of the statement or of a list. */
const PAGE_PARAMS = ["spage", "label", ...Object.values(LIST_PAGE_PARAMS)];

/**
 * Opening or closing a dialog (GET forms, ADR 009) or switching between tabs that show the same
 * parts only changes the query string: no need to read the page again. A tab showing a part not
 * read yet does (ADR 100), as does another page of the statement or of a list. Actions and
 * explicit revalidations still reload them.
 */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (
    (!formMethod || formMethod.toUpperCase() === "GET") &&
    currentUrl.pathname === nextUrl.pathname &&
    currentUrl.search !== nextUrl.search &&
    !needsNewParts(currentUrl, nextUrl) &&
    PAGE_PARAMS.every(
      (name) => currentUrl.searchParams.get(name) === nextUrl.searchParams.get(name),
    )
  ) {
    return false;
  }
  return defaultShouldRevalidate;
}

export function meta() {
  return [{ title: "Dashboard" }];
}

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { user } = loaderData;
  const dashboard = useDashboardData(loaderData.dashboard);
  return (
    <div className="min-h-dvh bg-muted/40">
      <DashboardHeader user={user} />
      <main className="mx-auto grid max-w-5xl gap-6 px-4 py-6 sm:py-8">
        <div className="grid gap-1">
          <h1 className="text-2xl font-bold break-words sm:text-3xl">
            Welcome, {user.firstName || user.email}
          </h1>
          <p className="text-muted-foreground">Manage your service requests and appointments</p>
        </div>
        <PageNotices />
        {dashboard.data ? (
          <DashboardBody data={dashboard.data} answered={actionData ?? null} />
        ) : dashboard.failed ? (
          <p role="alert" className="py-12 text-center text-muted-foreground">
            Your dashboard could not be loaded. Please reload the page.
          </p>
        ) : (
          <p role="status" className="py-12 text-center text-muted-foreground">
            Loading your dashboard...
          </p>
        )}
      </main>
    </div>
  );
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as Promise<T>)?.then === "function";
}

/**
 * The lists to show. A page load brings them complete; an in-app navigation, and every reload
 * after an action (a photo removed, a request saved or moved), brings a promise. While a new
 * promise is pending the last lists stay, and DashboardBody keeps its place in the tree whichever
 * form the data comes in: switching between the two (or behind a Suspense fallback) would mount
 * it afresh, and an open dialog would lose everything typed into it. No Suspense either: React
 * may stream even a finished boundary separately, and only a script can reveal it.
 */
function useDashboardData(dashboard: DashboardData | Promise<DashboardData>) {
  const [shown, setShown] = useState<DashboardData | null>(() =>
    isPromise(dashboard) ? null : dashboard,
  );
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!isPromise(dashboard)) {
      setShown(dashboard);
      setFailed(false);
      return;
    }
    let current = true;
    dashboard.then(
      (data) => {
        if (!current) return;
        setShown(data);
        setFailed(false);
      },
      (error: unknown) => {
        console.error(error);
        // Lists already on screen stay (and with them an open dialog); only a first load fails.
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [dashboard]);
  return { data: isPromise(dashboard) ? shown : dashboard, failed };
}

function DashboardBody({
  data,
  answered,
}: {
  data: DashboardData;
  /** The answer of a membership form just posted here, if any. */
  answered: MembershipAnswer | null;
}) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const tab = dashboardTab(params);
  const meter = data.meter;

  const dialog = dialogState(params, {
    requests: data.requests?.lists,
    editing: data.requests?.editing,
  });
  const closeDialog = () => {
    const next = new URLSearchParams(params);
    for (const name of ["new", "edit", "confirm"]) next.delete(name);
    const search = next.toString();
    return navigate(
      { search: search ? `?${search}` : "" },
      { replace: true, preventScrollReset: true },
    );
  };
  const reload = () => revalidator.revalidate();

  return (
    <>
      <RequestDialog state={dialog} onClose={closeDialog} onChanged={reload} />
      {data.handyman || meter !== null ? <YourHandyman handyman={data.handyman} /> : null}
      <MemberReferrals
        referrals={data.referrals}
        message={answered?.intent === "referral-consent" ? answered : null}
      />
      <Tabs
        value={tab}
        onValueChange={(value) =>
          setParams(
            (current) => {
              const next = new URLSearchParams(current);
              if (value === "requests") next.delete("tab");
              else next.set("tab", value);
              return next;
            },
            { replace: true, preventScrollReset: true },
          )
        }
        className="gap-4"
      >
        {/* Six tabs on a 390 px phone: short names and less padding there. */}
        <TabsList className="w-full sm:w-fit [&>button]:px-2 sm:[&>button]:px-3">
          <TabsTrigger value="requests">
            <span className="sm:hidden">Tasks</span>
            <span className="hidden sm:inline">Requests</span>
          </TabsTrigger>
          <TabsTrigger value="appointments">
            <span className="sm:hidden">Appts</span>
            <span className="hidden sm:inline">Appointments</span>
          </TabsTrigger>
          <TabsTrigger value="schedule">
            <span className="sm:hidden">Book</span>
            <span className="hidden sm:inline">Schedule</span>
          </TabsTrigger>
          <TabsTrigger value="completed">
            <span className="sm:hidden">Done</span>
            <span className="hidden sm:inline">Completed</span>
          </TabsTrigger>
          <TabsTrigger value="membership">
            <span className="sm:hidden">Plan</span>
            <span className="hidden sm:inline">Membership</span>
          </TabsTrigger>
          <TabsTrigger value="home">
            <span className="sm:hidden">Home</span>
            <span className="hidden sm:inline">My Home</span>
          </TabsTrigger>
        </TabsList>
        <TabsContent value="requests">
          {data.requests ? (
            <RequestsTab lists={data.requests.lists} onChanged={reload} />
          ) : (
            <TabLoading />
          )}
        </TabsContent>
        <TabsContent value="appointments">
          {data.appointments ? (
            <AppointmentsTab appointments={data.appointments} meter={meter} />
          ) : (
            <TabLoading />
          )}
        </TabsContent>
        <TabsContent value="schedule">
          {/* Visits move and cancel from their page; a walk-thru is on Appointments only. */}
          {data.appointments ? (
            <ScheduleTab
              appointments={data.appointments.filter((a) => a.kind === "visit")}
              meter={meter}
            />
          ) : (
            <TabLoading />
          )}
        </TabsContent>
        <TabsContent value="completed">
          {data.requests ? <CompletedTab list={data.requests.lists.completed} /> : <TabLoading />}
        </TabsContent>
        <TabsContent value="membership">
          {data.membership ? (
            <MembershipPanels membership={data.membership} answered={answered} />
          ) : (
            <TabLoading />
          )}
        </TabsContent>
        <TabsContent value="home">
          {data.home === undefined ? (
            <TabLoading />
          ) : data.home ? (
            <HomeRecord view={data.home} back="/dashboard?tab=home" />
          ) : (
            <p className="text-muted-foreground">Your home's record could not be loaded.</p>
          )}
        </TabsContent>
      </Tabs>
    </>
  );
}

/** A tab whose part of the page is being read (an in-app switch to it). */
function TabLoading() {
  return (
    <p role="status" className="py-12 text-center text-muted-foreground">
      Loading...
    </p>
  );
}

/** The Membership tab: the payments card, then the membership (bank, statement, cancel). */
function MembershipPanels({
  membership,
  answered,
}: {
  membership: NonNullable<DashboardData["membership"]>;
  answered: MembershipAnswer | null;
}) {
  const [params] = useSearchParams();
  return (
    <>
      {membership.payments ? (
        <MemberPayments
          view={membership.payments}
          message={
            answered && PAYMENT_INTENTS.has(answered.intent)
              ? answered.message
              : params.get("checkout") === "done"
                ? CHECKOUT_DONE_MESSAGE
                : null
          }
        />
      ) : null}
      <MembershipTab
        view={membership.view}
        walkThru={membership.walkThru}
        message={answered && !PAYMENT_INTENTS.has(answered.intent) ? answered.message : null}
      />
    </>
  );
}

function DashboardHeader({ user }: { user: SessionUser }) {
  return (
    <AppHeader>
      <ProfileMenu user={user} signOutErrorMessage="Failed to sign out" />
    </AppHeader>
  );
}
