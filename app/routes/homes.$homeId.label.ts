import { data, redirect } from "react-router";
import type { Route } from "./+types/homes.$homeId.label";
import { homeAccess, labelFolder, readLabelPhoto } from "~/features/home/index.server";
import { deleteStoredPhoto, isMultipart, readOnePhotoForm } from "~/features/photos/index.server";
import { answerMode } from "~/lib/form-answer.server";
import { getSessionUser } from "~/lib/session.server";
import { isUuid } from "~/lib/uuid";

const REFUSED: Record<string, string> = {
  "too-large": "The photo is too large (max 10MB).",
  "not-an-image": "That file is not a photo we can read.",
  "rate-limited": "Too many photos for now. Please try again later.",
  refused: "This form is out of date. Please try again.",
};

/** Where the form returns: a page of ours, with the label just read (?label=). */
function backWith(value: string | undefined, labelReadId: string | null) {
  const path = value && /^\/(dashboard|employee)(\/|\?|$)/.test(value) ? value : "/dashboard";
  const url = new URL(path, "http://x");
  if (labelReadId) url.searchParams.set("label", labelReadId);
  else url.searchParams.delete("label");
  return `${url.pathname}${url.search}`;
}

/**
 * 'Label photo' (ADR 087): the photo goes through the photo pipeline (ADR 009, 022), is read on
 * this server, and the page comes back with the 'Add appliance' form filled from it, for a
 * person to check and save. Those who may document the home's appliances only.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await getSessionUser(request);
  if (!user) return data({ ok: false, message: "Please sign in again." }, { status: 401 });
  const access = isUuid(params.homeId) ? await homeAccess(user, params.homeId) : null;
  if (!access?.rights.appliances)
    return data({ ok: false, message: "Not found." }, { status: 404 });
  if (!isMultipart(request))
    return data({ ok: false, message: "Please choose a photo." }, { status: 400 });
  const form = await readOnePhotoForm(request, {
    uploaderId: user.id,
    folder: labelFolder(access.homeId),
    accept: async () => true,
  });
  if (!form.photo) {
    const message = form.rejected ? REFUSED[form.rejected] : "Please choose a photo.";
    return data({ ok: false, message }, { status: form.rejected === "too-large" ? 413 : 400 });
  }
  let labelReadId: string;
  try {
    labelReadId = await readLabelPhoto(access, form.photo);
  } catch (error) {
    await deleteStoredPhoto(form.photo);
    throw error;
  }
  // An API client gets the reading's id; a page (with its script or without) comes back to it.
  if (answerMode(request, context) === "json") return data({ ok: true, labelReadId });
  throw redirect(backWith(form.fields.back, labelReadId), 303);
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
