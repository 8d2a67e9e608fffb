import { eq } from "drizzle-orm";
import type { Route } from "./+types/dashboard.memberships.$membershipId.statement";
import { db } from "~/db/client.server";
import { memberships } from "~/db/schema";
import { statementCsv } from "~/features/memberships/statement-csv.server";
import { membershipStatement } from "~/features/memberships/membership.server";
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
  const [membership] = await db()
    .select({
      id: memberships.id,
      customerId: memberships.customerId,
      startDate: memberships.startDate,
    })
    .from(memberships)
    .where(eq(memberships.id, params.membershipId));
  if (!membership || (!user.isEmployee && membership.customerId !== user.id)) {
    throw new Response("Not Found", { status: 404 });
  }
  const lines = await membershipStatement(membership.id);
  return new Response(statementCsv(lines), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="membership-statement-${membership.startDate}.csv"`,
      "cache-control": "private, no-store",
    },
  });
}
