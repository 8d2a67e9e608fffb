import { ALREADY_DONE, FORM_OUT_OF_DATE, isActionKey } from "~/lib/action-keys.server";
import { parseForm } from "~/lib/form-answer.server";
import type { FormAnswer } from "~/lib/form-answer";
import { UUID_PATTERN } from "~/lib/uuid";
import type { HomeAccess } from "./access.server";
import {
  addAppliance,
  editAppliance,
  HomeRejectedError,
  removeAppliance,
} from "./appliances.server";
import {
  addPlanTask,
  drawPlan,
  editPlanTask,
  markPlanTaskDone,
  removePlanTask,
} from "./plan.server";
import { applianceSchema, HOME_INTENTS, planTaskSchema, type HomeIntent } from "./schema";

export type HomeAnswer = FormAnswer<{ intent: string }>;

const SAID: Record<HomeIntent, string> = {
  "add-appliance": "Appliance saved.",
  "edit-appliance": "Appliance saved.",
  "remove-appliance": "Appliance removed.",
  "draw-plan": "The plan is drawn.",
  "add-task": "Task added to the plan.",
  "edit-task": "Task saved.",
  "remove-task": "Task removed from the plan.",
  "mark-done": "Marked done.",
};

const NOT_YOURS = "You can't change this part of the home's record.";

/** The home record's forms, one intent each; `access` says who may do what. */
export async function homeAction(
  access: HomeAccess,
  form: FormData,
): Promise<{ body: HomeAnswer; status: number }> {
  const intent = String(form.get("intent") ?? "");
  const said = (ok: boolean, message: string, status = ok ? 200 : 400, extra = {}) => ({
    body: { ok, intent, message, ...extra },
    status,
  });
  if (!(HOME_INTENTS as readonly string[]).includes(intent)) return said(false, "Unknown action.");
  const key = form.get("key");
  if (!isActionKey(key) && intent !== "draw-plan") return said(false, FORM_OUT_OF_DATE);
  const id = String(form.get("id") ?? "");
  const needsId = !["add-appliance", "add-task", "draw-plan"].includes(intent);
  if (needsId && !UUID_PATTERN.test(id)) return said(false, "Not found.", 404);
  const rights = access.rights;
  const allowed = intent.endsWith("appliance")
    ? rights.appliances
    : intent === "mark-done"
      ? rights.markDone
      : rights.plan;
  if (!allowed) return said(false, NOT_YOURS, 403);
  try {
    let applied = true;
    if (intent === "add-appliance" || intent === "edit-appliance") {
      const submission = parseForm(form, applianceSchema);
      if (submission.status !== "success")
        return said(false, "Please check the form.", 400, { result: submission.reply() });
      applied =
        intent === "add-appliance"
          ? await addAppliance(access, submission.value, key as string)
          : await editAppliance(access, id, submission.value, key as string);
    } else if (intent === "add-task" || intent === "edit-task") {
      const submission = parseForm(form, planTaskSchema);
      if (submission.status !== "success")
        return said(false, "Please check the form.", 400, { result: submission.reply() });
      applied =
        intent === "add-task"
          ? await addPlanTask(access, submission.value, key as string)
          : await editPlanTask(access, id, submission.value, key as string);
    } else if (intent === "remove-appliance") {
      applied = await removeAppliance(access, id, key as string);
    } else if (intent === "remove-task") {
      applied = await removePlanTask(access, id, key as string);
    } else if (intent === "mark-done") {
      applied = await markPlanTaskDone(access, id, key as string);
    } else {
      const added = await drawPlan(access);
      return said(
        true,
        added ? `The plan is drawn: ${added} tasks added.` : "The plan already has every task.",
      );
    }
    return said(true, applied ? SAID[intent as HomeIntent] : ALREADY_DONE);
  } catch (error) {
    if (error instanceof HomeRejectedError) return said(false, error.message, 409);
    throw error;
  }
}
