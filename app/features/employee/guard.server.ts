import { data } from "react-router";
import { requireStaffForAction, type SessionUser } from "~/lib/session.server";

/**
 * The guard of every office action (a handyman is refused: ADR 047). A refusal is answered as
 * data ({ ok: false }) with 401/403, not thrown, so a dashboard whose session ended shows a toast
 * instead of an error screen; nothing is changed either way.
 */
export async function guardEmployee(request: Request) {
  const guard = await guarded(request, requireStaffForAction);
  if (!guard.denied && guard.employee.isHandyman)
    return { denied: denial(403, OFFICE_ONLY_MESSAGE) } as const;
  return guard;
}

export const OFFICE_ONLY_MESSAGE = "This is for office staff.";

/** The guard of actions open to every employee, handymen too (their own photo, own hours). */
export async function guardStaff(request: Request) {
  return guarded(request, requireStaffForAction);
}

async function guarded(
  request: Request,
  require: (request: Request) => Promise<SessionUser>,
): Promise<{ employee: SessionUser; denied?: undefined } | { denied: ReturnType<typeof denial> }> {
  try {
    return { employee: await require(request) };
  } catch (error) {
    if (error instanceof Response) return { denied: denial(error.status) };
    throw error;
  }
}

export function denial(status: number, message?: string) {
  return data(
    {
      ok: false as const,
      message:
        message ?? (status === 401 ? "Please sign in again." : "You don't have employee access."),
    },
    { status },
  );
}
