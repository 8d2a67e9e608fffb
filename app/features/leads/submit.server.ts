import { zipAndCity } from "~/content/zip-cities";
import { db } from "~/db/client.server";
import { leadEntries } from "~/db/schema";
import { env } from "~/lib/env.server";
import { fieldErrorsOf } from "~/lib/form-answer";
import { parseForm } from "~/lib/form-answer.server";
import { logger } from "~/lib/logger.server";
import { enqueue, sendLeadWebhookNow } from "~/lib/outbox.server";
import { alertOffice } from "~/features/notifications/index.server";
import { hitAll } from "~/lib/rate-limit.server";
import type { ToastMessage } from "~/lib/toast-message";
import type { LeadResult, LeadStatus } from "./result";
import {
  CITY_FIELD_TITLES,
  CITY_LEAD_FIELDS,
  cityLeadSchema,
  HOME_FIELD_TITLES,
  HOME_LEAD_FIELDS,
  homeLeadSchema,
} from "./schema";
import { CITY_SENT, HOME_SENT, type TakenStatus } from "./sent";
import { acknowledgeHomeLead } from "./acknowledgement.server";
import { leadForEntry } from "./people.server";

/** Who is submitting and from where: the action's context, not the form. */
export type LeadContext = {
  clientAddress: string;
  /** The page the visitor was on (full URL). */
  pageUrl: string;
};

/** SPEC section 5: 3 submissions per 10 minutes for one e-mail address. */
export const LEAD_LIMIT = 3;
export const LEAD_WINDOW_MS = 10 * 60_000;
/**
 * One client address is often many people (an office, a household, a phone carrier's NAT): it
 * gets a wider budget that still stops a flood from one machine (ADR 011).
 */
export const LEAD_ADDRESS_LIMIT = 30;

type SaveMethod = "database" | "webhook" | "none";

/**
 * Keeps a lead: the row and its webhook call (outbox) are written in one transaction, so the
 * webhook is delivered, with retries, exactly when the lead exists. If the database fails,
 * the outbox's sender calls the webhook at once; if that fails too, the full lead goes to the
 * error log, the last place it can be recovered from.
 */
export async function saveLead(input: {
  lead: Omit<typeof leadEntries.$inferInsert, "id" | "createdAt" | "leadId">;
  webhookBody: Record<string, unknown>;
  createdAt: Date;
}): Promise<{ method: SaveMethod; id?: string }> {
  try {
    const id = await db().transaction(async (tx) => {
      // One person, one lead (ADR 060): this post is an entry of the e-mail's lead.
      const leadId = await leadForEntry(tx, {
        email: input.lead.email,
        name: input.lead.name,
        phone: input.lead.phone,
        zipCode: input.lead.zipCode,
        pageUrl: input.lead.pageUrl,
        source: input.lead.source,
        at: input.createdAt,
      });
      const [row] = await tx
        .insert(leadEntries)
        .values({ ...input.lead, leadId, createdAt: input.createdAt })
        .returning({ id: leadEntries.id });
      await enqueue(tx, "lead_webhook", { body: input.webhookBody, leadId: row.id });
      const { name, email, phone, zipCode, source } = input.lead;
      // The home page's visitor hears back at once that the request arrived (issue: rough edges).
      if (source === "home")
        await acknowledgeHomeLead(tx, {
          leadId,
          entryId: row.id,
          name,
          email,
          at: input.createdAt,
        });
      await alertOffice(tx, {
        subject: `New lead: ${name}`,
        customerName: name,
        lines: [
          `${name} sent the form on ${source === "home" ? "the home page" : `the ${source} page`}.`,
          `E-mail: ${email}`,
          ...(phone ? [`Phone: ${phone}`] : []),
          ...(zipCode ? [`ZIP code: ${zipAndCity(zipCode, null)}`] : []),
        ],
        staffPath: `/employee/leads/${leadId}`,
      });
      return row.id;
    });
    logger.info({ leadId: id, source: input.lead.source }, "lead saved");
    return { method: "database", id };
  } catch (error) {
    logger.error(
      { err: (error as Error).message, source: input.lead.source },
      "lead could not be saved to the database; calling the webhook directly",
    );
  }
  if (await sendLeadWebhookNow(input.webhookBody)) {
    logger.warn({ source: input.lead.source }, "lead delivered to the webhook only");
    return { method: "webhook" };
  }
  logger.error({ lead: input.webhookBody }, "LEAD NOT SAVED: recover it from this log line");
  return { method: "none" };
}

/**
 * The limiter lives in the database too: when the database is down it cannot count, and the
 * lead is worth more than the limit, so the submission goes on to the fallbacks.
 */
async function withinLimit(email: string, clientAddress: string) {
  try {
    return await hitAll(
      [`lead:email:${email}`, { key: `lead:ip:${clientAddress}`, limit: LEAD_ADDRESS_LIMIT }],
      LEAD_LIMIT,
      LEAD_WINDOW_MS,
    );
  } catch (error) {
    logger.error({ err: (error as Error).message }, "lead rate limit unavailable");
    return { allowed: true as const };
  }
}

type LeadSubmission = ReturnType<typeof parseForm>;

function invalidResult<F extends string>(
  submission: LeadSubmission,
  fields: F[],
  titles: Record<F, string>,
): LeadResult {
  const result = submission.reply();
  const errors = fieldErrorsOf(result);
  const first = fields.find((field) => errors[field]) ?? fields[0];
  return {
    ok: false,
    outcome: "invalid",
    toast: { kind: "error", title: titles[first], description: errors[first] ?? "" },
    result,
  };
}

function rateLimitedResult(minutes: number, submission: LeadSubmission): LeadResult {
  return {
    ok: false,
    outcome: "rate-limited",
    toast: {
      kind: "error",
      title: "Too many submissions",
      description: `Please wait ${minutes} minutes before submitting again.`,
    },
    result: submission.reply(),
  };
}

/** A lead taken, however it was kept: the page's message for it, and the form emptied. */
function takenResult(
  method: SaveMethod,
  submission: LeadSubmission,
  messages: Record<TakenStatus, ToastMessage>,
): LeadResult {
  const outcome = TAKEN_STATUS[method];
  return {
    ok: true,
    outcome,
    toast: { ...messages[outcome] },
    result: submission.reply({ resetForm: true }),
  };
}

const TAKEN_STATUS: Record<SaveMethod, TakenStatus> = {
  database: "saved",
  webhook: "saved-elsewhere",
  none: "not-saved",
};

/** The home page form (docs/product.md section 2; messages of section 8). */
export async function submitHomeLead(
  formData: FormData,
  context: LeadContext,
): Promise<LeadResult> {
  const submission = parseForm(formData, homeLeadSchema, HOME_LEAD_FIELDS);
  if (submission.status !== "success")
    return invalidResult(submission, HOME_LEAD_FIELDS, HOME_FIELD_TITLES);
  const { name, zipCode, email } = submission.value;

  const limit = await withinLimit(email, context.clientAddress);
  if (!limit.allowed) return rateLimitedResult(limit.minutes, submission);

  const createdAt = new Date();
  const saved = await saveLead({
    lead: { name, email, zipCode, formType: "contact", pageUrl: context.pageUrl, source: "home" },
    webhookBody: {
      name,
      email,
      zipCode,
      formType: "contact",
      timestamp: createdAt.toISOString(),
      page_url: context.pageUrl,
    },
    createdAt,
  });
  return takenResult(saved.method, submission, HOME_SENT);
}

/** The city-page form (docs/product.md section 2, "City-page contact form"; messages of section 8). */
export async function submitCityLead(
  formData: FormData,
  context: LeadContext & { source: string },
): Promise<LeadResult> {
  const submission = parseForm(formData, cityLeadSchema, CITY_LEAD_FIELDS);
  if (submission.status !== "success")
    return invalidResult(submission, CITY_LEAD_FIELDS, CITY_FIELD_TITLES);
  const { name, phone, email, message } = submission.value;

  const limit = await withinLimit(email, context.clientAddress);
  if (!limit.allowed) return rateLimitedResult(limit.minutes, submission);

  const saved = await saveLead({
    lead: {
      name,
      email,
      phone,
      message,
      formType: "contact",
      pageUrl: context.pageUrl,
      source: context.source,
    },
    webhookBody: { name, email, phone, message, formType: "contact" },
    createdAt: new Date(),
  });
  return takenResult(saved.method, submission, CITY_SENT);
}

/**
 * The page a lead came from: the Referer when it is one of our own pages (it keeps campaign
 * parameters such as utm_source), otherwise the page's canonical address.
 */
export function leadPageUrl(request: Request, path: string) {
  const base = env().publicUrl;
  const referer = request.headers.get("referer");
  if (referer) {
    try {
      const url = new URL(referer);
      const allowed = [new URL(base).origin, new URL(request.url).origin];
      if (allowed.includes(url.origin)) return url.toString();
    } catch {
      // not a URL: ignore it
    }
  }
  return `${base}${path}`;
}

/** The HTTP status of each outcome, for `answer` (ADR 033): what a plain post or an API client gets. */
export const LEAD_HTTP_STATUS: Record<LeadStatus, number> = {
  saved: 200,
  "saved-elsewhere": 200,
  "not-saved": 200,
  invalid: 400,
  "rate-limited": 429,
  error: 500,
};
