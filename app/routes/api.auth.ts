import type { Route } from "./+types/api.auth";
import {
  limitAccountMail,
  limitAuthAttempt,
  tooManyAttempts,
} from "~/features/accounts/rate-limit.server";
import { fullName, signUpSchema } from "~/features/accounts/schema";
import { auth, VERIFIED_LANDING } from "~/lib/auth.server";

/*
 * Better Auth's own endpoints under /api/auth/*, with our rules in front of the ones that
 * matter: the spec's rate limit on sign-in and sign-up (per e-mail and per client address,
 * atomic in the database) and the sign-up form's rules, so the API cannot skip what /auth checks.
 */

export function loader({ request }: Route.LoaderArgs) {
  return auth().handler(request);
}

const SIGN_IN_OR_UP = new Set(["/api/auth/sign-in/email", "/api/auth/sign-up/email"]);
const SENDS_MAIL = new Set([
  "/api/auth/request-password-reset",
  "/api/auth/send-verification-email",
]);

export async function action({ request, context }: Route.ActionArgs) {
  const path = new URL(request.url).pathname;
  if (!SIGN_IN_OR_UP.has(path) && !SENDS_MAIL.has(path)) return auth().handler(request);

  const body = await readBody(request);
  if (!body) return json(400, { code: "INVALID_BODY", message: "Invalid request body" });
  const email = typeof body.email === "string" ? body.email : "";

  const limit = SENDS_MAIL.has(path)
    ? await limitAccountMail(email, context.clientAddress)
    : await limitAuthAttempt(email, context.clientAddress);
  if (!limit.allowed) {
    const notice = tooManyAttempts(limit.minutes);
    return json(
      429,
      { code: "TOO_MANY_ATTEMPTS", title: notice.title, message: notice.description },
      { "Retry-After": String(Math.ceil(limit.retryAfterMs / 1000)) },
    );
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
    return auth().handler(
      rebuild(request, {
        name: fullName(firstName, lastName),
        email: cleanEmail,
        password,
        firstName,
        lastName,
        callbackURL: VERIFIED_LANDING,
      }),
    );
  }
  return auth().handler(rebuild(request, body));
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
