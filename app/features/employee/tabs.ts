export const DASHBOARD_TABS = ["requests", "appointments", "customers", "leads"] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

export function parseDashboardTab(value: string | null | undefined): DashboardTab {
  return (DASHBOARD_TABS as readonly string[]).includes(value ?? "")
    ? (value as DashboardTab)
    : "requests";
}
