import { and, gte, lt } from "drizzle-orm";
import { db } from "~/db/client.server";
import { introCalls } from "~/db/schema";
import { env } from "~/lib/env.server";
import type { SubmissionResult } from "@conform-to/react";
import { fieldErrorsOf } from "~/lib/form-answer";
import { parseForm } from "~/lib/form-answer.server";
import { logger } from "~/lib/logger.server";
import { enqueue } from "~/lib/outbox.server";
import { alertOffice } from "~/features/notifications/index.server";
import { hitAll } from "~/lib/rate-limit.server";
import { LEAD_ADDRESS_LIMIT, leadForEntry } from "~/features/leads/index.server";
import { loadClosedDays } from "~/features/availability/index.server";
import { addDays, businessToday } from "~/lib/business-calendar";
import { introCallConfirmation } from "./confirmation.server";
import type { BookingField, BookingResult, SchedulerData } from "./result";
import { bookingSchema } from "./schema";
import { DAYS_AHEAD, dayLabel, isOfferableSlot, offeredSlots, slotLabel, timeLabel } from "./slots";

/** What the booking page shows: the external widget when configured, else the free slots. */
export async function schedulerData(now = new Date()): Promise<SchedulerData> {
  const embed = env().schedulerEmbedUrl;
  if (embed) return { mode: "embed", url: embed };
  const until = new Date(now.getTime() + (DAYS_AHEAD + 1) * 24 * 60 * 60_000);
  const taken = await db()
    .select({ startsAt: introCalls.startsAt })
    .from(introCalls)
    .where(and(gte(introCalls.startsAt, now), lt(introCalls.startsAt, until)));
  const closed = await closedDaysAhead(now);
  return {
    mode: "builtin",
    days: offeredSlots(
      now,
      taken.map((t) => t.startsAt),
      closed,
    ).map((day) => ({
      date: day.date,
      label: dayLabel(day.slots[0]),
      slots: day.slots.map((slot) => ({ startsAt: slot.toISOString(), label: timeLabel(slot) })),
    })),
  };
}

/** The closed days over the calendar's window (the business calendar, with staff's changes). */
function closedDaysAhead(now: Date) {
  const today = businessToday(now);
  return loadClosedDays(today, addDays(today, DAYS_AHEAD));
}

const BOOKING_FIELDS: BookingField[] = ["name", "email", "phone", "startsAt"];

/** The field whose message the toast says, when several were refused. */
const FIRST_REFUSED: BookingField[] = ["startsAt", "name", "email", "phone"];

/** A refusal's result carries the messages only, never what was submitted. */
function refusal({ initialValue: _submitted, ...result }: SubmissionResult<string[]>) {
  return result;
}

const FIELD_TITLES: Record<BookingField, string> = {
  name: "Invalid name",
  email: "Invalid email",
  phone: "Invalid phone number",
  startsAt: "Choose a time",
};

function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  while (current && typeof current === "object") {
    if ((current as { code?: string }).code === "23505") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The HTTP status of each outcome, for `answer` (ADR 033). */
export const BOOKING_HTTP_STATUS: Record<BookingResult["outcome"], number> = {
  booked: 200,
  invalid: 400,
  taken: 409,
  "rate-limited": 429,
  error: 500,
};

/**
 * Books a slot. The slot's uniqueness is the database's (intro_calls_starts_at_unique), so two
 * visitors racing for the same time can never both get it; the confirmation e-mail is queued in
 * the same transaction, so it goes out exactly when the booking exists.
 */
export async function bookIntroCall(
  formData: FormData,
  context: { clientAddress: string; now?: Date },
): Promise<BookingResult> {
  const now = context.now ?? new Date();
  const submission = parseForm(formData, bookingSchema, BOOKING_FIELDS);
  const unavailable =
    submission.status === "success" &&
    !isOfferableSlot(submission.value.startsAt, now, await closedDaysAhead(now));
  if (submission.status !== "success" || unavailable) {
    const result = refusal(
      submission.reply(
        unavailable
          ? {
              fieldErrors: {
                startsAt: ["That time is not available. Please choose another time."],
              },
            }
          : {},
      ),
    );
    const errors = fieldErrorsOf(result);
    const first = FIRST_REFUSED.find((field) => errors[field]) ?? "startsAt";
    return {
      ok: false,
      outcome: "invalid",
      toast: { kind: "error", title: FIELD_TITLES[first], description: errors[first] ?? "" },
      result,
    };
  }
  const { name, email, phone, startsAt } = submission.value;

  const limit = await hitAll(
    [
      `intro-call:email:${email}`,
      { key: `intro-call:ip:${context.clientAddress}`, limit: LEAD_ADDRESS_LIMIT },
    ],
    3,
    10 * 60_000,
  );
  if (!limit.allowed) {
    return {
      ok: false,
      outcome: "rate-limited",
      toast: {
        kind: "error",
        title: "Too many submissions",
        description: `Please wait ${limit.minutes} minutes before submitting again.`,
      },
    };
  }

  try {
    const call = await db().transaction(async (tx) => {
      const leadId = await leadForEntry(tx, {
        email,
        name,
        phone,
        source: "intro-call",
        at: now,
      });
      const [row] = await tx
        .insert(introCalls)
        .values({ name, email, phone, startsAt, leadId, createdAt: now })
        .returning();
      await enqueue(tx, "email", introCallConfirmation(row));
      await alertOffice(tx, {
        subject: `New intro call: ${row.name}, ${slotLabel(row.startsAt)}`,
        customerName: row.name,
        lines: [
          `${row.name} booked an intro call for ${slotLabel(row.startsAt)}.`,
          `Phone: ${row.phone}`,
          `E-mail: ${row.email}`,
        ],
        staffPath: `/employee/leads/${leadId}`,
      });
      return row;
    });
    logger.info(
      { introCallId: call.id, startsAt: call.startsAt.toISOString() },
      "intro call booked",
    );
    const when = slotLabel(call.startsAt);
    return {
      ok: true,
      outcome: "booked",
      toast: {
        kind: "success",
        title: "Your intro call is booked!",
        description: `We'll call you on ${when}. A confirmation is on its way to ${email}.`,
      },
      booking: { when, email },
    };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return {
      ok: false,
      outcome: "taken",
      toast: {
        kind: "error",
        title: "That time was just taken",
        description: "Someone booked it a moment ago. Please choose another time.",
      },
      result: {
        status: "error",
        error: { startsAt: ["That time was just taken. Please choose another time."] },
      },
    };
  }
}
