import type { Route } from "./+types/dashboard.memberships.$membershipId.statement";
import { statementCsv } from "~/features/memberships/statement-csv.server";
import { statementFor } from "~/features/memberships/statement.server";
import { getSessionUser } from "~/lib/session.server";
import { UUID_PATTERN } from "~/lib/uuid";

/**
 * A membership's statement as a CSV file: for its member and for staff only. Anyone else gets
 * 404, the same as for an id that does not exist, so ids cannot be probed.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (!user) throw new Response("Unauthorized", { status: 401 });
  // A membership's statement is the member's and the office's, never a handyman's (ADR 047).
  if (user.isHandyman) throw new Response("Forbidden", { status: 403 });
  if (!UUID_PATTERN.test(params.membershipId)) throw new Response("Not Found", { status: 404 });
  const statement = await statementFor(user, params.membershipId);
  if (!statement) throw new Response("Not Found", { status: 404 });
  return new Response(statementCsv(statement.lines), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="membership-statement-${statement.startDate}.csv"`,
      "cache-control": "private, no-store",
    },
  });
}
