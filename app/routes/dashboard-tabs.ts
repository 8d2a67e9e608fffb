/** The member's dashboard tabs, as `?tab=` names them (the first is the default). */
export const DASHBOARD_TABS = [
  "requests",
  "appointments",
  "schedule",
  "completed",
  "membership",
  "home",
] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

/** The tab `?tab=` asks for; anything else is the first. */
export function dashboardTab(params: URLSearchParams): DashboardTab {
  const asked = params.get("tab");
  return DASHBOARD_TABS.includes(asked as DashboardTab) ? (asked as DashboardTab) : "requests";
}

/** Which parts of the page a tab shows (a request opened by ?edit= needs the lists on any tab). */
export function dashboardParts(tab: DashboardTab, params: URLSearchParams) {
  return {
    requests: tab === "requests" || tab === "completed" || params.has("edit"),
    appointments: tab === "appointments" || tab === "schedule",
    membership: tab === "membership",
    home: tab === "home",
  };
}

/** Whether going from one dashboard URL to the next shows a part the first did not read. */
export function needsNewParts(current: URL, next: URL) {
  const had = dashboardParts(dashboardTab(current.searchParams), current.searchParams);
  const needs = dashboardParts(dashboardTab(next.searchParams), next.searchParams);
  return (Object.keys(needs) as (keyof typeof needs)[]).some((part) => needs[part] && !had[part]);
}
