import { Form, href, Link } from "react-router";
import type { Route } from "./+types/employee.today";
import { StaffHeader } from "~/features/employee/components/staff-header";
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
  claimPhotoKey,
  finishOwnVisit,
  handymanVisits,
  isOwnVisit,
  isTodayView,
  ownTaskRequest,
  progressOwnVisit,
  suggestedMinutes,
  wasApplied,
  type TodayView,
} from "~/features/visits/today.server";
import { VISIT_STATUS_LABELS } from "~/features/visits/visit-state";
import { VisitRejectedError } from "~/features/visits/visits.server";
import { isActionKey, newActionKey } from "~/lib/action-keys.server";
import { businessToday, businessWallClock, minuteLabel } from "~/lib/business-calendar";
import type { FormAnswer } from "~/lib/form-answer";
import { answer, type AnswerContext } from "~/lib/form-answer.server";
import { logger } from "~/lib/logger.server";
import { requireStaff } from "~/lib/session.server";
import { TodayHomeRecord } from "~/features/home";
import { homeRecordsFor } from "~/features/home/index.server";
import { isUuid } from "~/lib/uuid";
import { ReferSpecialist } from "~/features/specialists";
import { referFromForm, specialistOptions } from "~/features/specialists/refer-form.server";
import { formatCents } from "~/lib/money";
import { hoursText } from "~/lib/hours";
import { phoneHref } from "~/lib/phone";

/*
 * 'Today' (issue 26 items 9-10): the handyman's day on a phone. Every action is a plain form
 * post (no JavaScript needed), carries an idempotency key drawn with the page (ADR 048), and
 * acts only on a visit assigned to the one asking. A post is answered in place through the one
 * form answer (ADR 033): the page drawn again with what was done, and fresh keys. The same form
 * sent again (a retry, a double tap, a reload) is applied once and answered 'Already done'.
 */

const VIEW_LABELS: Record<TodayView, string> = {
  today: "Today",
  tomorrow: "Tomorrow",
  week: "This week",
};

/** What a form sent twice is answered: it was applied the first time. */
const REPEATED = "Already done: this was sent twice and applied once.";

export async function loader({ request }: Route.LoaderArgs) {
  const employee = await requireStaff(request);
  const url = new URL(request.url);
  const asked = url.searchParams.get("view");
  const view: TodayView = isTodayView(asked) ? asked : "today";
  const today = businessToday();
  const now = new Date();
  const [visits, specialists] = await Promise.all([
    handymanVisits(employee.id, view, today),
    specialistOptions(),
  ]);
  return {
    employee,
    view,
    today,
    // The home records of the day's visits (ADR 087).
    homes: await homeRecordsFor(
      employee,
      visits.filter((v) => v.date === today && v.homeId).map((v) => v.homeId!),
    ),
    specialists,
    visits: visits.map(({ startedAt, ...v }) => ({
      ...v,
      suggested: suggestedMinutes(startedAt, v.block, now),
      // When 'Start visit' was tapped, as the clock on the wall read it.
      started: startedAt ? minuteLabel(businessWallClock(new Date(startedAt)).minute) : null,
      // One key per form, drawn now: a form sent twice is applied once.
      keys: {
        onMyWay: newActionKey(),
        start: newActionKey(),
        finish: newActionKey(),
        photo: newActionKey(),
        part: newActionKey(),
        refer: newActionKey(),
      },
    })),
  };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? VIEW_LABELS[data.view] : "Today" }];
}

/** `referFor`: the visit whose 'Refer a specialist' opens ('Finish visit' said it needs one). */
type TodayAnswer = FormAnswer<{ message: string; referFor?: string }>;

/** Done, or already done by the same form sent before (its key applied once). */
function done(context: AnswerContext, applied: boolean, message: string) {
  return answer<TodayAnswer>({ ok: true, message: applied ? message : REPEATED }, context);
}

export async function action({ request, context }: Route.ActionArgs) {
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
      const minutes = Number(values.minutesWorked);
      if (!WORKED_CHOICES.includes(minutes)) return refuse("Please choose the time worked.");
      const result = await finishOwnVisit(me, {
        appointmentId,
        key,
        minutesWorked: minutes,
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
      const parsed = partSchema.safeParse(values);
      if (!parsed.success)
        return refuse(parsed.error.issues[0]?.message ?? "Please check the part.");
      const result = await addPartToOwnVisit(me, {
        appointmentId,
        key,
        description: parsed.data.description,
        costCents: parsed.data.cost,
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
  const parsed = partSchema.safeParse(fields);
  if (!parsed.success) {
    await drop();
    return refuse(parsed.error.issues[0]?.message ?? "Please check the part.");
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
      description: parsed.data.description,
      costCents: parsed.data.cost,
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

function mapsLink(address: string) {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}

export default function Today({ loaderData: d, actionData }: Route.ComponentProps) {
  const error = actionData && !actionData.ok ? actionData.message : null;
  const said = actionData?.ok ? actionData.message : null;
  const referFor = actionData && "referFor" in actionData ? actionData.referFor : undefined;
  const isToday = (date: string) => date === d.today;
  return (
    <>
      <StaffHeader employee={d.employee} width="max-w-3xl" />
      <main className="mx-auto grid max-w-3xl gap-4 px-4 py-4 sm:py-8">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h1 className="text-2xl font-bold">{VIEW_LABELS[d.view]}</h1>
          {/* His working hours and time off, one tap from his day. */}
          <Link
            to={href("/employee/availability")}
            className="text-sm underline underline-offset-4"
          >
            My hours
          </Link>
        </div>
        <nav aria-label="Days" className="flex gap-2">
          {(["today", "tomorrow", "week"] as const).map((view) => (
            <Link
              key={view}
              to={view === "today" ? "/employee/today" : `/employee/today?view=${view}`}
              aria-current={view === d.view ? "page" : undefined}
              className="rounded-md border px-3 py-2 text-sm aria-[current=page]:bg-primary aria-[current=page]:text-primary-foreground"
            >
              {VIEW_LABELS[view]}
            </Link>
          ))}
        </nav>
        {error ? (
          <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3">
            {error}
          </p>
        ) : said ? (
          <p role="status" className="rounded-md border bg-card p-3">
            {said}
          </p>
        ) : null}
        {d.visits.length === 0 && <p className="text-muted-foreground">No visits.</p>}
        <ol className="grid gap-4">
          {d.visits.map((v, index) => {
            const open = v.status === "booked" || v.status === "on_the_way";
            const working = open || v.status === "in_progress";
            // A short id: 8 visits' forms keep the page within 60 KB.
            const titleId = `v${index}`;
            return (
              <li key={v.id}>
                <article
                  aria-labelledby={titleId}
                  className="grid gap-3 rounded-lg border bg-card p-4"
                >
                  <h2 id={titleId} className="text-lg font-semibold">
                    {d.view === "week" ? `${v.dateLabel}, ` : ""}
                    {v.startLabel} to {v.endLabel}: {v.isWalkThru ? "Walk-thru, " : ""}
                    {v.customerName}
                  </h2>
                  <p className="text-sm">
                    <span className="font-medium">{VISIT_STATUS_LABELS[v.status]}</span>
                  </p>
                  <p>
                    <a className="underline" href={mapsLink(v.address)}>
                      {v.address}
                    </a>
                  </p>
                  {v.phone && (
                    <p>
                      <a className="underline" href={phoneHref(v.phone, { asWritten: true })}>
                        Call {v.phone}
                      </a>
                    </p>
                  )}
                  {v.propertyNotes && <p className="text-sm">Home: {v.propertyNotes}</p>}
                  {v.visitNotes && <p className="text-sm">Notes: {v.visitNotes}</p>}
                  {v.homeId && d.homes[v.homeId] && <TodayHomeRecord view={d.homes[v.homeId]!} />}
                  {v.coveringFor && <p className="text-sm">Covering for {v.coveringFor}</p>}
                  {v.withHandyman && (
                    <p className="text-sm" data-testid="with-handyman">
                      Two handymen: with {v.withHandyman}
                    </p>
                  )}
                  {/* A walk-thru has no tasks (ADR 061): no empty heading. */}
                  {v.tasks.length > 0 && (
                    <>
                      <h3 className="font-medium">Tasks</h3>
                      <ul className="grid gap-2">
                        {v.tasks.map((t) => (
                          <li key={t.id} className="grid gap-1">
                            <span>
                              {t.description}
                              {t.outcome ? ` (${t.outcome === "done" ? "Done" : "Not done"})` : ""}
                            </span>
                            {t.notes && (
                              <span className="text-sm text-muted-foreground">{t.notes}</span>
                            )}
                            {t.staffNotes && (
                              <span className="text-sm">Office: {t.staffNotes}</span>
                            )}
                            {t.photos.length > 0 && (
                              <span className="flex flex-wrap gap-2">
                                {t.photos.map((p) => (
                                  <a key={p.id} href={`/request-photos/${p.id}`}>
                                    <img
                                      src={`/request-photos/${p.id}/thumbnail`}
                                      alt={`${p.taken === "after" ? "After photo" : p.taken === "before" ? "Before photo" : "Photo"}: ${p.name}`}
                                      width={64}
                                      height={64}
                                      loading="lazy"
                                      className="size-16 rounded object-cover"
                                    />
                                  </a>
                                ))}
                              </span>
                            )}
                          </li>
                        ))}
                      </ul>
                    </>
                  )}
                  {v.parts.length > 0 && (
                    <>
                      <h3 className="font-medium">Parts</h3>
                      <ul className="grid gap-1 text-sm">
                        {v.parts.map((p) => (
                          <li key={p.id}>
                            {p.description}: {formatCents(p.costCents)} (
                            {p.status === "pending_approval"
                              ? "waiting for the member's approval"
                              : p.status.replace("_", " ")}
                            )
                            {p.hasReceipt && (
                              <>
                                {" "}
                                <a className="underline" href={`/part-receipts/${p.id}`}>
                                  Receipt
                                </a>
                              </>
                            )}
                          </li>
                        ))}
                      </ul>
                    </>
                  )}
                  {isToday(v.date) && open && (
                    // One form and one key per action: a double tap on either is applied once,
                    // and 'Start visit' right after 'On my way' is an action of its own.
                    <div className="flex flex-wrap gap-2">
                      {v.status === "booked" && (
                        <Form method="post">
                          <input type="hidden" name="appointmentId" value={v.id} />
                          <input type="hidden" name="key" value={v.keys.onMyWay} />
                          <button name="intent" value="on-my-way" className="btn btn-main">
                            On my way
                          </button>
                        </Form>
                      )}
                      <Form method="post">
                        <input type="hidden" name="appointmentId" value={v.id} />
                        <input type="hidden" name="key" value={v.keys.start} />
                        <button
                          name="intent"
                          value="start"
                          className={v.status === "booked" ? "btn btn-line" : "btn btn-main"}
                        >
                          Start visit
                        </button>
                      </Form>
                    </div>
                  )}
                  {working && v.date <= d.today && (
                    <details className="box">
                      <summary>Finish visit</summary>
                      <Form method="post" className="mt-3 grid gap-3">
                        <input type="hidden" name="appointmentId" value={v.id} />
                        <input type="hidden" name="key" value={v.keys.finish} />
                        <label className="grid gap-1">
                          Time worked
                          <span className="text-sm text-muted-foreground">
                            {v.started
                              ? `From 'Start visit' at ${v.started} to now, rounded to 15 minutes.`
                              : "The visit was not started here: the whole block."}
                          </span>
                          {/* Keyed on the offer: drawn again after 'Start visit', not kept. */}
                          <select
                            key={v.suggested}
                            name="minutesWorked"
                            defaultValue={v.suggested}
                            className="field"
                          >
                            {WORKED_CHOICES.filter((m) => m <= v.block).map((m) => (
                              <option key={m} value={m}>
                                {hoursText(m)}
                              </option>
                            ))}
                          </select>
                        </label>
                        <label className="flex items-start gap-2">
                          <input
                            type="checkbox"
                            name="confirmWorked"
                            value="yes"
                            required
                            className="mt-1"
                          />
                          I confirm the time worked
                        </label>
                        {v.tasks.map((t) => (
                          <fieldset key={t.id}>
                            <legend className="font-medium">{t.description}</legend>
                            <label className="mr-4">
                              <input type="radio" name={`task-${t.id}`} value="done" required />{" "}
                              Done
                            </label>
                            <label>
                              <input type="radio" name={`task-${t.id}`} value="not_done" /> Not done
                            </label>
                          </fieldset>
                        ))}
                        <fieldset>
                          <legend className="font-medium">
                            Does the work need a new water or power source?
                          </legend>
                          <label className="mr-4">
                            <input type="radio" name="newSource" value="yes" /> Yes
                          </label>
                          <label>
                            <input type="radio" name="newSource" value="no" defaultChecked /> No
                          </label>
                        </fieldset>
                        <button name="intent" value="finish" className="btn btn-main">
                          Save and finish
                        </button>
                      </Form>
                    </details>
                  )}
                  {v.status !== "canceled" && v.tasks.some((t) => t.requestId) && (
                    <details className="box">
                      <summary>Add photo</summary>
                      <Form method="post" encType="multipart/form-data" className="mt-3 grid gap-3">
                        <input type="hidden" name="appointmentId" value={v.id} />
                        <input type="hidden" name="key" value={v.keys.photo} />
                        <label className="grid gap-1">
                          Task
                          <select name="taskId" className="field">
                            {v.tasks
                              .filter((t) => t.requestId)
                              .map((t) => (
                                <option key={t.id} value={t.id}>
                                  {t.description}
                                </option>
                              ))}
                          </select>
                        </label>
                        <fieldset>
                          <legend>Taken</legend>
                          <label className="mr-4">
                            <input type="radio" name="when" value="before" required /> Before
                          </label>
                          <label>
                            <input type="radio" name="when" value="after" /> After
                          </label>
                        </fieldset>
                        <label className="grid gap-1">
                          Photo
                          <input
                            className="field"
                            type="file"
                            name="photo"
                            accept="image/*"
                            required
                          />
                        </label>
                        <button className="btn btn-main">Upload photo</button>
                      </Form>
                    </details>
                  )}
                  {/* A job for a licensed trade goes to a specialist (issue 41, item 6). */}
                  {v.status !== "canceled" && !v.isWalkThru && (
                    <ReferSpecialist
                      specialists={d.specialists}
                      source={{ appointmentId: v.id }}
                      actionKey={v.keys.refer}
                      photoCount={v.tasks.reduce((n, t) => n + t.photos.length, 0)}
                      open={referFor === v.id}
                      newWaterOrPower={referFor === v.id}
                      idPrefix={`${titleId}-refer`}
                    />
                  )}
                  {/* Parts are a member's visit's; a walk-thru only looks. */}
                  {v.status !== "canceled" && !v.isWalkThru && (
                    <details className="box">
                      <summary>Add part</summary>
                      <Form
                        // Drawn again, empty, once a part is added: a second tap cannot add
                        // the same part twice (a mistake keeps what was typed).
                        key={`part-${v.parts.length}`}
                        method="post"
                        action={`/employee/today?${d.view === "today" ? "" : `view=${d.view}&`}add=part`}
                        encType="multipart/form-data"
                        className="mt-3 grid gap-3"
                      >
                        <input type="hidden" name="appointmentId" value={v.id} />
                        <input type="hidden" name="key" value={v.keys.part} />
                        <label className="grid gap-1">
                          Part
                          <input className="field" name="description" maxLength={200} required />
                        </label>
                        <label className="grid gap-1">
                          Price (over $100, the member approves first)
                          <input
                            className="field"
                            name="cost"
                            inputMode="decimal"
                            placeholder="$0.00"
                            required
                          />
                        </label>
                        {/* Optional: a part is often recorded before it is bought. With its
                            receipt it was bought: charged at once (over $100, once approved). */}
                        <label className="grid gap-1">
                          Receipt photo (with it, the part counts as bought)
                          <input className="field" type="file" name="receipt" accept="image/*" />
                        </label>
                        <button name="intent" value="part" className="btn btn-main">
                          Save part
                        </button>
                      </Form>
                    </details>
                  )}
                </article>
              </li>
            );
          })}
        </ol>
      </main>
    </>
  );
}
