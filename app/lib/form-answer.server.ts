import { parse } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { z } from "zod";
import type { FormAnswer } from "./form-answer";
import { formFields } from "./form-fields";

/**
 * Whether the page's own script asked (server/app.ts sets it from the request: a React Router
 * data request, or a public page's script sending X-Page-Script).
 */
export type AnswerContext = { scriptRequest?: boolean };

/**
 * How a post is answered, the one way every action tells its askers apart:
 *   script  the page's own script (context.scriptRequest, set in server/app.ts: a `.data`
 *           request or X-Page-Script): the result as data, 200 for a person's mistake
 *   page    a browser's form post without JavaScript (it accepts text/html, as every
 *           navigation does): a page, or a redirect to one
 *   json    any other client (an API client, curl): the result as JSON, with its meaningful
 *           status
 */
export function answerMode(request: Request, context: AnswerContext) {
  if (context.scriptRequest) return "script";
  return (request.headers.get("accept") ?? "").includes("text/html") ? "page" : "json";
}

/**
 * The HTTP status to answer a form's result with: the one status rule of every action.
 *
 * A form posted without JavaScript, or by a client that is not this app's own script, gets the
 * meaningful status (400 for a wrong field, 401 for a wrong password, 429 when rate-limited...).
 * The page's own script shows the error from the body itself, so it gets 200 for a person's
 * ordinary mistake: a 4xx would also print "Failed to load resource" in the browser's console
 * for what is only a typo. What the person acted on being gone or out of bounds (404, 403)
 * keeps its status, as server failures (5xx) do: the router then does not reload the page's
 * data after it, so the page that asked can still say what went wrong. `ordinary` marks a 403
 * that is a person's ordinary situation rather than a refusal of what they acted on (signing in
 * before confirming the address): the script gets 200 for it too (issue 32).
 */
export function answerStatus(status: number, context: AnswerContext, ordinary = false) {
  const clientError = status >= 400 && status < 500;
  const mistake = clientError && (ordinary || (status !== 403 && status !== 404));
  return context.scriptRequest && mistake ? 200 : status;
}

/**
 * An action's answer: the body, with the status `answerStatus` gives (by default 200 when
 * `ok`, 400 when not) and any headers (a cookie set by sign-in, say).
 */
export function answer<T extends FormAnswer>(
  body: T,
  context: AnswerContext,
  init: { status?: number; headers?: HeadersInit; ordinary?: boolean } = {},
) {
  const status = init.status ?? (body.ok ? 200 : 400);
  return data(body, {
    status: answerStatus(status, context, init.ordinary),
    headers: init.headers,
  });
}

/**
 * A posted form checked by a Zod schema, as a Conform submission (its `reply()` is the answer's
 * `result`). The schema reads the fields as `formFields` gives them: a value each, a field
 * sent twice refused in plain words, empty text left as it came (the schemas' own messages say
 * what is missing).
 */
export function parseForm<Schema extends z.ZodType>(
  formData: FormData,
  schema: Schema,
  names?: readonly string[],
) {
  return parse<z.output<Schema>, string[]>(formData, {
    resolve: () => {
      const parsed = schema.safeParse(formFields(formData, names));
      if (parsed.success) return { value: parsed.data };
      const error: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) {
        (error[issue.path.map(String).join(".")] ??= []).push(issue.message);
      }
      return { error };
    },
  });
}

/** What an intent action answers: the intent a form posted, and one sentence for it. */
export type IntentAnswer = FormAnswer<{ intent: string; message: string }>;

/**
 * One form of an intent action (a route whose forms post an `intent` field) checked by its Zod
 * schema through Conform's parseWithZod (ADR 093). The schema reads the posted text as it
 * came: no coercion, so empty text stays empty and the schema's own messages say what is
 * missing. A valid form gives its parsed `value`; a refused one its `refusal`, the answer to
 * return: the intent, the first message as the form's sentence, and in `result` (Conform's
 * reply) every refused field's messages, so the page marks each field, not only the first.
 * A multipart form's text fields, read apart from its files, come as URLSearchParams.
 */
export function parseIntent<Schema extends z.ZodType>(
  formData: FormData | URLSearchParams,
  schema: Schema,
  intent: string,
): { ok: true; value: z.output<Schema> } | { ok: false; refusal: IntentAnswer & { ok: false } } {
  const submission = parseWithZod(formData, { schema, disableAutoCoercion: true });
  if (submission.status === "success") return { ok: true, value: submission.value };
  const result = submission.reply();
  const first = Object.values(result.error ?? {}).find((messages) => messages?.length)?.[0];
  return {
    ok: false,
    refusal: { ok: false, intent, message: first ?? "Please check the form", result },
  };
}
