import { data } from "react-router";
import { requireEmployeeForAction, type SessionUser } from "~/lib/session.server";

/**
 * The guard of every employee action. A refusal is answered as data ({ ok: false }) with
 * 401/403, not thrown, so a dashboard whose session ended shows a toast instead of an error
 * screen; nothing is changed either way.
 */
export async function guardEmployee(
  request: Request,
): Promise<{ employee: SessionUser; denied?: undefined } | { denied: ReturnType<typeof denial> }> {
  try {
    return { employee: await requireEmployeeForAction(request) };
  } catch (error) {
    if (error instanceof Response) return { denied: denial(error.status) };
    throw error;
  }
}

function denial(status: number) {
  return data(
    {
      ok: false as const,
      message: status === 401 ? "Please sign in again." : "You don't have employee access.",
    },
    { status },
  );
}
