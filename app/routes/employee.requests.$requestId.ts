import { answer } from "~/lib/form-answer.server";
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
export async function action({ request, params, context }: Route.ActionArgs) {
  const guard = await guardEmployee(request);
  if (guard.denied) return guard.denied;
  const form = formFields(await request.formData());
  const intent = form.intent;
  if (!isUuid(params.requestId)) {
    return answer({ ok: false as const, message: "No such request" }, context, { status: 404 });
  }

  const parsed =
    intent === "status"
      ? updateStatusSchema.safeParse(form)
      : intent === "notes"
        ? updateNotesSchema.safeParse(form)
        : undefined;
  if (!parsed?.success) {
    return answer(
      { ok: false as const, message: parsed?.error.issues[0]?.message ?? "Unknown action" },
      context,
      { status: 400 },
    );
  }
  try {
    const found =
      parsed.data.intent === "status"
        ? await setRequestStatus(params.requestId, parsed.data.status)
        : await setRequestNotes(params.requestId, parsed.data.notes);
    if (!found)
      return answer({ ok: false as const, message: "No such request" }, context, { status: 404 });
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
    return answer({ ok: false as const, message: "The change could not be saved" }, context, {
      status: 500,
    });
  }
}

/** Without JavaScript the dialog's forms post here; send the browser back to the dialog. */
export function loader({ params }: Route.LoaderArgs) {
  return new Response(null, {
    status: 303,
    headers: { Location: `/employee?request=${encodeURIComponent(params.requestId)}` },
  });
}
