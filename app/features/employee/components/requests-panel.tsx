import { href, useLocation, useNavigation } from "react-router";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { MATCH_COUNT_CAP } from "~/features/service-requests";
import type { EmployeeDashboard } from "../dashboard.server";
import { listHeading } from "./card-rows";
import { RequestsFilter } from "./requests-filter";
import { RequestPagesNav, RequestsTable } from "./requests-table";

/** The All Requests tab: one page of rows (`RequestListItem`), its links and its filter. */
export type RequestsPanelData = NonNullable<EmployeeDashboard["requests"]>;

/** The current URL with some parameters changed (null removes one). */
export function withParams(search: string, changes: Record<string, string | null>) {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(key);
    else params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : "?";
}

export function RequestsPanel({ data, total }: { data: RequestsPanelData; total: number }) {
  const location = useLocation();
  const navigation = useNavigation();
  const filtered = Boolean(data.status || data.search);
  const loading =
    navigation.state === "loading" && navigation.location?.pathname === href("/employee");

  const openHref = (id: string) => withParams(location.search, { request: id, tab: "requests" });

  return (
    <Card>
      <CardHeader className="gap-4">
        <CardTitle asChild>
          <h2 className="text-xl">
            {listHeading("All Requests", {
              shown: data.matching,
              total,
              filtered,
              noun: ["request", "requests"],
              cap: MATCH_COUNT_CAP,
            })}
          </h2>
        </CardTitle>
        <RequestsFilter search={data.search} status={data.status} filtered={filtered} />
      </CardHeader>
      <CardContent aria-busy={loading}>
        {data.rows.length === 0 ? (
          <p className="py-10 text-center text-muted-foreground">
            {filtered ? "No requests match this search" : "No requests yet"}
          </p>
        ) : (
          <RequestsTable rows={data.rows} openHref={openHref} />
        )}
        {(data.newer || data.older) && (
          <RequestPagesNav
            newerHref={
              data.newer &&
              withParams(location.search, { before: data.newer, after: null, request: null })
            }
            olderHref={
              data.older &&
              withParams(location.search, { after: data.older, before: null, request: null })
            }
          />
        )}
      </CardContent>
    </Card>
  );
}
