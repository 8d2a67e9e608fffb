import { data, redirect } from "react-router";
import type { Route } from "./+types/homes.$homeId";
import { homeAccess, homeAction } from "~/features/home/index.server";
import { answerMode, answerStatus } from "~/lib/form-answer.server";
import { getSessionUser } from "~/lib/session.server";
import { isUuid } from "~/lib/uuid";

/** Where a form posted without JavaScript returns: a page of ours, never another site. */
function backTo(value: FormDataEntryValue | null) {
  const path = typeof value === "string" ? value : "";
  return /^\/(dashboard|employee)(\/|\?|$)/.test(path) && !path.startsWith("//") ? path : "/";
}

/**
 * The home record's forms (ADR 087): the member, the office and the day's handyman post here;
 * `homeAccess` decides who may, the home's owner being part of the query.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await getSessionUser(request);
  if (!user) return data({ ok: false, message: "Please sign in again." }, { status: 401 });
  const access = isUuid(params.homeId) ? await homeAccess(user, params.homeId) : null;
  if (!access) return data({ ok: false, message: "Not found." }, { status: 404 });
  const form = await request.formData();
  const { body, status } = await homeAction(access, form);
  if (answerMode(request, context) === "page") throw redirect(backTo(form.get("back")), 303);
  return data(body, { status: answerStatus(status, context) });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
