/*
 * 'Today''s actions (employee.today.tsx beside this route): every action is a plain form post,
 * carries an idempotency key drawn with the page (ADR 048) and acts only on a visit assigned to
 * the one asking. A post is answered in place through the one form answer (ADR 033): the page
 * drawn again with what was done, and fresh keys; a refused form names each refused field so
 * the page marks it (ADR 093). The same form sent again (a retry, a double tap, a reload) is
 * applied once and answered 'Already done'.
 */
import { z } from "zod";
import type { Route } from "./+types/employee.today";
import { guardStaff } from "~/features/employee/guard.server";
import { partSchema, taskOutcomesFrom, WORKED_CHOICES } from "~/features/memberships/schema";
import {
  deleteStoredPhoto,
  isMultipart,
  MultipartError,
  openPhotoUpload,
  readOnePhotoForm,
  removeRequestPhoto,
} from "~/features/photos/index.server";
import {
  addPartToOwnVisit,
  ALREADY_DONE_MESSAGE as REPEATED,
  claimPhotoKey,
  finishOwnVisit,
  isOwnVisit,
  ownTaskRequest,
  progressOwnVisit,
  wasApplied,
} from "~/features/visits/today.server";
import { VisitRejectedError } from "~/features/visits/visits.server";
import { isActionKey } from "~/lib/action-keys.server";
import type { FormAnswer } from "~/lib/form-answer";
import { answer, parseIntent, type AnswerContext } from "~/lib/form-answer.server";
import { logger } from "~/lib/logger.server";
import { isUuid } from "~/lib/uuid";
import { referFromForm } from "~/features/specialists/refer-form.server";

/** 'Finish visit''s time worked: one of the offered choices. */
const finishSchema = z.object({
  minutesWorked: z.coerce
    .number({ error: "Please choose the time worked." })
    .refine((m) => WORKED_CHOICES.includes(m), "Please choose the time worked."),
});

/**
 * `referFor`: the visit whose 'Refer a specialist' opens ('Finish visit' said it needs one).
 * `intent`: the form a refusal answers, its fields in `result` (with the visit's id).
 */
export type TodayAnswer = FormAnswer<{ message: string; intent?: string; referFor?: string }>;

/** Done, or already done by the same form sent before (its key applied once). */
function done(context: AnswerContext, applied: boolean, message: string) {
  return answer<TodayAnswer>({ ok: true, message: applied ? message : REPEATED }, context);
}

/** The handyman's actions on his own visits; office staff act on theirs the same way. */
export async function todayAction({ request, context }: Route.ActionArgs) {
  const guard = await guardStaff(request);
  if (guard.denied) return guard.denied;
  const me = guard.employee;
  const refuse = (message: string, status = 400) =>
    answer<TodayAnswer>({ ok: false, message }, context, { status });

  if (isMultipart(request))
    return new URL(request.url).searchParams.get("add") === "part"
      ? addPartWithReceipt(request, context, me, refuse)
      : addPhoto(request, context, me.id, refuse);

  const form = await request.formData();
  const values = Object.fromEntries(
    [...form.entries()].map(([k, v]) => [k, typeof v === "string" ? v : ""]),
  );
  const { intent, appointmentId, key } = values;
  if (!isUuid(appointmentId ?? "")) return refuse("Unknown visit.", 404);
  if (!isActionKey(key)) return refuse("This form is out of date. Please try again.");
  try {
    if (intent === "on-my-way" || intent === "start") {
      const { applied } = await progressOwnVisit(me, {
        appointmentId,
        key,
        to: intent === "start" ? "in_progress" : "on_the_way",
      });
      return done(
        context,
        applied,
        intent === "start" ? "Visit started." : "The member has been told you are on your way.",
      );
    }
    if (intent === "refer") {
      const referred = await referFromForm(values, me);
      return answer<TodayAnswer>(referred, context, { status: referred.ok ? 200 : 400 });
    }
    if (intent === "finish") {
      const parsed = parseIntent(form, finishSchema, intent);
      if (!parsed.ok) return answer(parsed.refusal, context);
      const result = await finishOwnVisit(me, {
        appointmentId,
        key,
        minutesWorked: parsed.value.minutesWorked,
        outcomes: taskOutcomesFrom(values),
        confirmed: values.confirmWorked === "yes",
      });
      // A new water or power source is a licensed trade's: the referral opens (issue 41).
      if (values.newSource === "yes")
        return answer<TodayAnswer>(
          {
            ok: true,
            message: result.applied
              ? "Visit finished. The work needs a new water or power source: refer a specialist below."
              : REPEATED,
            referFor: appointmentId,
          },
          context,
        );
      return done(context, result.applied, "Visit finished.");
    }
    if (intent === "part") {
      const parsed = parseIntent(form, partSchema, intent);
      if (!parsed.ok) return answer(parsed.refusal, context);
      const result = await addPartToOwnVisit(me, {
        appointmentId,
        key,
        description: parsed.value.description,
        costCents: parsed.value.cost,
      });
      return done(context, result.applied, "Part added.");
    }
  } catch (error) {
    if (error instanceof VisitRejectedError) return refuse(error.message);
    throw error;
  }
  return refuse("Unknown action.");
}

/**
 * 'Add photo': a multipart post (the task, the key, then the photo) stored through the photo
 * pipeline as an after photo of the visit on the task's request. The key is claimed once the
 * photo is stored; a second post of the same form stores nothing (or removes its copy when the
 * two raced).
 */
async function addPhoto(
  request: Request,
  context: AnswerContext,
  handymanId: string,
  refuse: (message: string, status?: number) => ReturnType<typeof answer>,
) {
  const upload = openPhotoUpload(request, handymanId);
  let fields: Record<string, string>;
  try {
    fields = await upload.fields;
  } catch (error) {
    if (error instanceof MultipartError) return refuse(error.message, error.status);
    throw error;
  }
  const { appointmentId = "", taskId = "", key, when } = fields;
  const task =
    isUuid(appointmentId) && isUuid(taskId)
      ? await ownTaskRequest(handymanId, appointmentId, taskId)
      : null;
  if (!task || !isActionKey(key) || (await wasApplied(key))) {
    await upload.storeInto(null).catch(() => {});
    if (!task) return refuse("Please choose a task of your visit.", 404);
    if (!isActionKey(key)) return refuse("This form is out of date. Please try again.");
    return done(context, false, "Photo added.");
  }
  if (when !== "before" && when !== "after") {
    await upload.storeInto(null).catch(() => {});
    return refuse("Please choose Before or After.");
  }
  const result = await upload.storeInto(
    task.requestId,
    when === "before" ? { beforeVisitId: appointmentId } : { afterVisitId: appointmentId },
  );
  if (!result.saved.length) {
    const reason = result.skipped[0]?.reason;
    return refuse(
      reason === "too-large"
        ? "That photo is too large (at most 10 MB)."
        : "Please choose a photo (JPEG, PNG, WebP or HEIC).",
    );
  }
  const fresh = await claimPhotoKey(handymanId, key);
  if (!fresh) {
    for (const photo of result.saved)
      await removeRequestPhoto(task.customerId, task.requestId, photo.id).catch((error) =>
        logger.warn({ err: error }, "a repeated photo could not be removed"),
      );
    return done(context, false, "Photo added.");
  }
  return done(context, true, "Photo added.");
}

/**
 * 'Add part' (a multipart post: the part's fields, then its optional receipt photo). The photo
 * goes through the photo pipeline before the part is recorded; a repeated or refused form keeps
 * nothing of it. The key is claimed with the part, in one transaction.
 */
async function addPartWithReceipt(
  request: Request,
  context: AnswerContext,
  me: Parameters<typeof addPartToOwnVisit>[0],
  refuse: (message: string, status?: number) => ReturnType<typeof answer>,
) {
  let form: Awaited<ReturnType<typeof readOnePhotoForm>>;
  try {
    form = await readOnePhotoForm(request, {
      uploaderId: me.id,
      folder: "part-receipts/",
      accept: async (fields) =>
        isUuid(fields.appointmentId ?? "") &&
        isActionKey(fields.key) &&
        partSchema.safeParse(fields).success &&
        !(await wasApplied(fields.key)) &&
        (await isOwnVisit(me.id, fields.appointmentId)),
    });
  } catch (error) {
    if (error instanceof MultipartError) return refuse(error.message, error.status);
    throw error;
  }
  const { fields, photo, rejected } = form;
  const drop = () => (photo ? deleteStoredPhoto(photo) : Promise.resolve());
  const { appointmentId = "", key } = fields;
  if (!isUuid(appointmentId)) return refuse("Unknown visit.", 404);
  if (!isActionKey(key)) return refuse("This form is out of date. Please try again.");
  // The part's fields checked as the plain form's are: each refused one is marked.
  const parsed = parseIntent(new URLSearchParams(fields), partSchema, "part");
  if (!parsed.ok) {
    await drop();
    return answer(parsed.refusal, context);
  }
  if (rejected === "too-large") return refuse("That receipt photo is too large (at most 10 MB).");
  if (rejected === "not-an-image")
    return refuse("Please choose a receipt photo (JPEG, PNG, WebP or HEIC).");
  if (rejected === "rate-limited")
    return refuse("Too many photos in the last hour. Please try again later.", 429);
  try {
    const result = await addPartToOwnVisit(me, {
      appointmentId,
      key,
      description: parsed.value.description,
      costCents: parsed.value.cost,
      receipt: photo,
    });
    if (!result.applied) await drop();
    return done(context, result.applied, "Part added.");
  } catch (error) {
    await drop();
    if (error instanceof VisitRejectedError) return refuse(error.message);
    throw error;
  }
}
