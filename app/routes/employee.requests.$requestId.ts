import { data } from "react-router";
import type { Route } from "./+types/employee.requests.$requestId";
import { guardEmployee } from "~/features/employee/guard.server";
import { updateNotesSchema, updateStatusSchema } from "~/features/service-requests/schema";
import {
  setRequestNotes,
  setRequestStatus,
} from "~/features/service-requests/staff-queries.server";
import { isUuid } from "~/lib/uuid";
import { formFields } from "~/lib/form-fields";
import { logger } from "~/lib/logger.server";

/** The request detail dialog's changes: its status and its internal notes. */
export async function action({ request, params }: Route.ActionArgs) {
  const guard = await guardEmployee(request);
  if (guard.denied) return guard.denied;
  const form = formFields(await request.formData());
  const intent = form.intent;
  if (!isUuid(params.requestId)) {
    return data({ ok: false as const, error: "No such request" }, { status: 404 });
  }

  const parsed =
    intent === "status"
      ? updateStatusSchema.safeParse(form)
      : intent === "notes"
        ? updateNotesSchema.safeParse(form)
        : undefined;
  if (!parsed?.success) {
    return data(
      { ok: false as const, error: parsed?.error.issues[0]?.message ?? "Unknown action" },
      { status: 400 },
    );
  }
  try {
    const found =
      parsed.data.intent === "status"
        ? await setRequestStatus(params.requestId, parsed.data.status)
        : await setRequestNotes(params.requestId, parsed.data.notes);
    if (!found) return data({ ok: false as const, error: "No such request" }, { status: 404 });
    logger.info(
      { requestId: params.requestId, employeeId: guard.employee.id, change: parsed.data.intent },
      "service request updated by employee",
    );
    return { ok: true as const };
  } catch (error) {
    logger.error(
      { requestId: params.requestId, err: (error as Error).message },
      "service request update failed",
    );
    return data({ ok: false as const, error: "The change could not be saved" }, { status: 500 });
  }
}

/** Without JavaScript the dialog's forms post here; send the browser back to the dialog. */
export function loader({ params }: Route.LoaderArgs) {
  return new Response(null, {
    status: 303,
    headers: { Location: `/employee?request=${encodeURIComponent(params.requestId)}` },
  });
}
