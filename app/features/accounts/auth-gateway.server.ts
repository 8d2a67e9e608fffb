import { knownDevice, knownDeviceCookie } from "./known-device.server";
import { limitAccountMail, limitAuthAttempt, tooManyAttempts } from "./rate-limit.server";
import { fullName, signUpSchema } from "./schema";
import { startPasswordReset } from "./sign-in.server";
import { auth, VERIFIED_LANDING } from "~/lib/auth.server";
import {
  CONTROL_CHARACTERS_MESSAGE,
  emailSchema,
  withoutControlCharacters,
} from "~/lib/validation";

/*
 * The gateway to Better Auth's own endpoints under /api/auth/*, with our rules in front of the
 * ones that matter: the spec's rate limit on sign-in and sign-up (per e-mail and per client
 * address, atomic in the database) and the sign-up form's rules, so the API cannot skip what
 * /auth checks.
 */

/** A GET to Better Auth (the session, the e-mail verification link...). */
export function readAuthApi(request: Request) {
  if (urlHasControlCharacters(request.url)) return unusual();
  return auth().handler(request);
}

const SIGN_IN_OR_UP = new Set(["/api/auth/sign-in/email", "/api/auth/sign-up/email"]);
const SENDS_MAIL = new Set([
  "/api/auth/request-password-reset",
  "/api/auth/send-verification-email",
]);

/** A POST to Better Auth, from the client at `clientAddress`. */
export async function answerAuthApi(request: Request, clientAddress: string) {
  const path = new URL(request.url).pathname;
  // A NUL in an e-mail address or a token reaches PostgreSQL, which refuses it (a 500).
  if (urlHasControlCharacters(request.url)) return unusual();
  const found = controlCharactersIn(await readBody(request.clone()));
  if (found === "found") return unusual();
  if (found === "too deep") return json(400, INVALID_BODY);
  if (!SIGN_IN_OR_UP.has(path) && !SENDS_MAIL.has(path)) return auth().handler(request);

  const body = await readBody(request);
  if (!body) return json(400, INVALID_BODY);
  // The address keys the rate limit: a well-formed one (at most 254 characters) or nothing.
  const checked = emailSchema.safeParse(body.email);
  if (!checked.success)
    return json(400, { code: "INVALID_EMAIL", message: checked.error.issues[0].message });
  const email = checked.data;

  const device = path === "/api/auth/sign-in/email" ? knownDevice(request, email) : null;
  const attempt = SENDS_MAIL.has(path)
    ? null
    : await limitAuthAttempt(email, clientAddress, device);
  const limit = attempt ?? (await limitAccountMail(email, clientAddress));
  if (!limit.allowed) {
    const notice = tooManyAttempts(limit.minutes);
    return json(
      429,
      { code: "TOO_MANY_ATTEMPTS", title: notice.title, message: notice.description },
      { "Retry-After": String(Math.ceil(limit.retryAfterMs / 1000)) },
    );
  }

  if (path === "/api/auth/request-password-reset") {
    // Not waited for: known and unknown addresses get the same answer in the same time (ADR 021).
    void startPasswordReset(email);
    return json(200, {
      status: true,
      message: "If this email exists in our system, check your email for the reset link",
    });
  }

  if (path === "/api/auth/sign-up/email") {
    const parsed = signUpSchema.safeParse({ ...body, intent: "sign-up" });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return json(400, {
        code: "VALIDATION_ERROR",
        message: issue.message,
        field: String(issue.path[0] ?? ""),
      });
    }
    const { firstName, lastName, email: cleanEmail, password } = parsed.data;
    // Only known fields go on: anything else a client sends (isEmployee...) is dropped here.
    const response = await auth().handler(
      rebuild(request, {
        name: fullName(firstName, lastName),
        email: cleanEmail,
        password,
        firstName,
        lastName,
        callbackURL: VERIFIED_LANDING,
      }),
    );
    if (response.ok) await attempt?.succeededSignUp();
    return response;
  }
  const response = await auth().handler(rebuild(request, body));
  // A correct password (a session, or the second factor asked for) does not count, and this
  // browser is known to the account from now on (ADR 021).
  if (response.ok && path === "/api/auth/sign-in/email") {
    await attempt?.succeededSignIn();
    const headers = new Headers(response.headers);
    headers.append("Set-Cookie", knownDeviceCookie(email, device));
    return new Response(response.body, { status: response.status, headers });
  }
  return response;
}

/**
 * How deep a body may nest: Better Auth's bodies are flat objects (a few fields, a list of
 * backup codes). A deeper one is refused as unreadable (400), before anything walks it
 * recursively: a 100,000-deep array overflowed the stack of the check below when it recursed,
 * and would overflow JSON.stringify when the body is passed on.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * Control characters anywhere in a body, passwords aside: those are only ever hashed, and the
 * /auth forms accept any password too (sign-in must keep working for every existing one).
 * Iterative, with its own stack: "too deep" when the body nests past MAX_BODY_DEPTH.
 */
function controlCharactersIn(body: unknown): "found" | "none" | "too deep" {
  const pending: { value: unknown; key: string; depth: number }[] = [
    { value: body, key: "", depth: 0 },
  ];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { value, key, depth } = item;
    if (typeof value === "string") {
      if (!/password$/i.test(key) && !withoutControlCharacters(value)) return "found";
      continue;
    }
    if (!value || typeof value !== "object") continue;
    if (depth >= MAX_BODY_DEPTH) return "too deep";
    if (Array.isArray(value)) {
      for (const entry of value) pending.push({ value: entry, key, depth: depth + 1 });
      continue;
    }
    for (const [name, entry] of Object.entries(value)) {
      if (!withoutControlCharacters(name)) return "found";
      pending.push({ value: entry, key: name, depth: depth + 1 });
    }
  }
  return "none";
}

/** In the path or the query (a token or a callback URL), once decoded. */
function urlHasControlCharacters(href: string) {
  const url = new URL(href);
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // a malformed escape decodes to nothing harmful: checked as it is
  }
  // URLSearchParams decodes leniently (a malformed escape does not hide the rest).
  const query = [...url.searchParams].flat();
  return [path, ...query].some((part) => !withoutControlCharacters(part));
}

const INVALID_BODY = { code: "INVALID_BODY", message: "Invalid request body" };

function unusual() {
  return json(400, { code: "INVALID_CHARACTERS", message: CONTROL_CHARACTERS_MESSAGE });
}

async function readBody(request: Request): Promise<Record<string, unknown> | null> {
  try {
    const type = request.headers.get("content-type") ?? "";
    if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data"))
      return Object.fromEntries(await request.formData());
    const value: unknown = await request.json();
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The same request with a JSON body (the original body has been read). */
function rebuild(request: Request, body: Record<string, unknown>) {
  const headers = new Headers(request.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  return new Request(request.url, { method: request.method, headers, body: JSON.stringify(body) });
}

function json(status: number, body: object, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers, ...NO_STORE },
  });
}

const NO_STORE = { "cache-control": "no-store" };
