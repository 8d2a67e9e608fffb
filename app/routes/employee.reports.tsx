import { Link } from "react-router";
import type { Route } from "./+types/employee.reports";
import { AppHeader } from "~/components/layout/app-header";
import { StaticProfileMenu } from "~/features/accounts";
import { buttonVariants } from "~/components/ui/button-variants";
import { periodFrom, periodQuery } from "~/features/reports";
import {
  reportSectionsMarkup,
  reportsPageFigures,
  requireReportsReader,
} from "~/features/reports/index.server";
import { businessToday, plainDate } from "~/lib/business-calendar";
import type { PageHandle } from "~/lib/page-scripts";
import { PeriodForm } from "~/features/reports/components/report-sections";

/*
 * The owner's numbers (issue 30): members, money, prepaid hours, handymen, sales and parts for
 * a period, each chart drawn here as SVG with its figures in a table beside it and a CSV of that
 * table. The page runs no JavaScript in the browser (no hydration, ADR 030's pattern): the
 * period picker is a plain GET form. The sections' markup is rendered once for each report kept
 * while the database is unchanged (ADR 106).
 */
export const handle: PageHandle = { hydrate: false };

export async function loader({ request }: Route.LoaderArgs) {
  const employee = await requireReportsReader(request);
  const now = new Date();
  const period = periodFrom(new URL(request.url).searchParams, businessToday(now));
  // The report, and the dedicated handyman's share of visits and the referrals per specialist
  // (ADR 088), kept while the database is unchanged (ADR 092).
  const figures = await reportsPageFigures(period, { now });
  return {
    employee,
    period,
    asOf: figures.report.asOf,
    sections: reportSectionsMarkup(figures, periodQuery(period)),
  };
}

export function meta() {
  return [{ title: "Reports" }];
}

export default function Reports({ loaderData: d }: Route.ComponentProps) {
  const { period } = d;
  return (
    <>
      <AppHeader width="max-w-6xl">
        <Link to="/employee" className={buttonVariants({ variant: "outline" })}>
          Dashboard
        </Link>
        {/* The page runs no JavaScript: the profile menu is a disclosure, 'Sign Out' a form. */}
        <StaticProfileMenu user={d.employee} profileHref="/employee?profile=open" />
      </AppHeader>
      <main className="mx-auto grid max-w-6xl gap-6 px-4 py-6 sm:py-8">
        <div className="grid gap-1">
          <h1 className="text-2xl font-bold sm:text-3xl">Reports</h1>
          <p className="text-sm text-muted-foreground">
            {period.label}; members, hours owed and approvals pending on{" "}
            {plainDate(d.asOf, { month: "short" })}.
          </p>
        </div>
        <PeriodForm period={period} />
        {/* Members, prepaid hours, handymen, sales and parts: markup made by the server alone. */}
        <div className="contents" dangerouslySetInnerHTML={{ __html: d.sections }} />
      </main>
    </>
  );
}
