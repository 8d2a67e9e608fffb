import { requireEmployee, requireEmployeeForAction, type SessionUser } from "~/lib/session.server";

/*
 * Who may read the owner's numbers (issue 30): office staff. The one rule both the page and
 * its CSV downloads ask, so a role that should not see them (handymen) is refused here once.
 */

export function canSeeReports(user: Pick<SessionUser, "isEmployee" | "isHandyman">) {
  return user.isEmployee && !user.isHandyman;
}

/** The page: a visitor to /auth, a customer to /dashboard, a handyman to 'Today' (requireEmployee). */
export async function requireReportsReader(request: Request) {
  const user = await requireEmployee(request);
  if (!canSeeReports(user)) throw new Response("Forbidden", { status: 403 });
  return user;
}

/** The CSV files: 401 without a session, 403 for anyone who may not see the reports. */
export async function requireReportsReaderForFile(request: Request) {
  const user = await requireEmployeeForAction(request);
  if (!canSeeReports(user)) throw new Response("Forbidden", { status: 403 });
  return user;
}
