import type { z } from "zod";
import { db } from "~/db/client.server";
import { leads } from "~/db/schema";
import { env } from "~/lib/env.server";
import { formFields } from "~/lib/form-fields";
import { logger } from "~/lib/logger.server";
import { enqueue, sendLeadWebhookNow } from "~/lib/outbox.server";
import { hitAll } from "~/lib/rate-limit.server";
import type { LeadResult, LeadStatus } from "./result";
import {
  CITY_FIELD_TITLES,
  CITY_LEAD_FIELDS,
  cityLeadSchema,
  HOME_FIELD_TITLES,
  HOME_LEAD_FIELDS,
  homeLeadSchema,
  type CityLeadField,
  type HomeLeadField,
} from "./schema";

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
  lead: Omit<typeof leads.$inferInsert, "id" | "createdAt">;
  webhookBody: Record<string, unknown>;
  createdAt: Date;
}): Promise<{ method: SaveMethod; id?: string }> {
  try {
    const id = await db().transaction(async (tx) => {
      const [row] = await tx
        .insert(leads)
        .values({ ...input.lead, createdAt: input.createdAt })
        .returning({ id: leads.id });
      await enqueue(tx, "lead_webhook", { body: input.webhookBody, leadId: row.id });
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

function formValues<F extends string>(formData: FormData, fields: F[]) {
  const values: Partial<Record<F, string>> = {};
  for (const field of fields) {
    const value = formData.get(field);
    if (typeof value === "string") values[field] = value;
  }
  return values;
}

function invalidResult<F extends string>(
  error: z.ZodError,
  fields: F[],
  titles: Record<F, string>,
  values: Partial<Record<F, string>>,
): LeadResult<F> {
  const fieldErrors: Partial<Record<F, string>> = {};
  for (const field of fields) {
    const issue = error.issues.find((i) => i.path[0] === field);
    if (issue) fieldErrors[field] = issue.message;
  }
  const first = fields.find((field) => fieldErrors[field])!;
  return {
    status: "invalid",
    toast: { kind: "error", title: titles[first], description: fieldErrors[first]! },
    clear: false,
    fieldErrors,
    values,
  };
}

function rateLimitedResult<F extends string>(
  minutes: number,
  values: Partial<Record<F, string>>,
): LeadResult<F> {
  return {
    status: "rate-limited",
    toast: {
      kind: "error",
      title: "Too many submissions",
      description: `Please wait ${minutes} minutes before submitting again.`,
    },
    clear: false,
    values,
  };
}

const STATUS_OF: Record<SaveMethod, LeadStatus> = {
  database: "saved",
  webhook: "saved-elsewhere",
  none: "not-saved",
};

/** The home page form (SPEC.md section 2; messages of section 8). */
export async function submitHomeLead(
  formData: FormData,
  context: LeadContext,
): Promise<LeadResult<HomeLeadField>> {
  const values = formValues(formData, HOME_LEAD_FIELDS);
  const parsed = homeLeadSchema.safeParse(formFields(formData, HOME_LEAD_FIELDS));
  if (!parsed.success)
    return invalidResult(parsed.error, HOME_LEAD_FIELDS, HOME_FIELD_TITLES, values);
  const { name, zipCode, email } = parsed.data;

  const limit = await withinLimit(email, context.clientAddress);
  if (!limit.allowed) return rateLimitedResult(limit.minutes, values);

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
  const status = STATUS_OF[saved.method];
  return status === "not-saved"
    ? {
        status,
        toast: {
          kind: "info",
          title: "Form submitted",
          description: "We'll be in touch soon to schedule your consultation.",
        },
        clear: true,
      }
    : {
        status,
        toast: {
          kind: "success",
          title: "Thank you for your interest!",
          description: "We'll be in touch soon to schedule your free consultation.",
        },
        clear: true,
      };
}

const CITY_TOASTS = {
  saved: {
    kind: "success",
    title: "Thank you for your interest!",
    description: "Your message has been received and saved. We'll contact you within 24 hours.",
  },
  "saved-elsewhere": {
    kind: "success",
    title: "Thank you for your interest!",
    description: "We'll contact you within 24 hours to schedule your consultation.",
  },
  "not-saved": {
    kind: "info",
    title: "Form submitted",
    description: "We'll be in touch within 24 hours to schedule your consultation.",
  },
} as const;

/** The city-page form (SPEC.md section 2, "City-page contact form"; messages of section 8). */
export async function submitCityLead(
  formData: FormData,
  context: LeadContext & { source: string },
): Promise<LeadResult<CityLeadField>> {
  const values = formValues(formData, CITY_LEAD_FIELDS);
  const parsed = cityLeadSchema.safeParse(formFields(formData, CITY_LEAD_FIELDS));
  if (!parsed.success)
    return invalidResult(parsed.error, CITY_LEAD_FIELDS, CITY_FIELD_TITLES, values);
  const { name, phone, email, message } = parsed.data;

  const limit = await withinLimit(email, context.clientAddress);
  if (!limit.allowed) return rateLimitedResult(limit.minutes, values);

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
  const status = STATUS_OF[saved.method] as keyof typeof CITY_TOASTS;
  return { status, toast: { ...CITY_TOASTS[status] }, clear: true };
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

/**
 * The HTTP status for a result: a form posted without JavaScript, or by a client that is not a
 * browser, gets a meaningful one. The page's own script gets 200 whatever the result, which it
 * shows itself: a 4xx would also print a network error in the browser's console for what is
 * only someone's typo.
 */
export function leadResponseStatus(
  result: { status: "invalid" | "rate-limited" | "taken" | string },
  context: { scriptRequest?: boolean },
) {
  if (context.scriptRequest) return 200;
  if (result.status === "invalid") return 400;
  if (result.status === "taken") return 409;
  if (result.status === "rate-limited") return 429;
  return 200;
}
