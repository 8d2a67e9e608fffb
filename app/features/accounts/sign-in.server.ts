import { href } from "react-router";
import { isAPIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { homes, profiles } from "~/db/schema";
import { auth, RESET_LANDING, VERIFIED_LANDING } from "~/lib/auth.server";
import { logger } from "~/lib/logger.server";
import { knownDevice, knownDeviceCookie } from "./known-device.server";
import { limitAccountMail, limitAuthAttempt, tooManyAttempts } from "./rate-limit.server";
import { fullName, type Notice } from "./schema";

/*
 * The /auth page's server side: each function takes validated input, asks Better Auth, and
 * says what the page should do next. Session cookies Better Auth sets travel in `headers`.
 */

export type AuthOutcome =
  | {
      type: "notice";
      notice: Notice;
      status?: number;
      headers?: Headers;
      /** The address is not confirmed yet: the page offers 'Resend confirmation e-mail'. */
      offerResend?: boolean;
      /** A person's ordinary situation whatever the status (answerStatus): the page's own
       * script is answered 200, so the browser's console logs no failed request. */
      ordinary?: boolean;
    }
  | { type: "redirect"; to: string; headers?: Headers }
  | { type: "two-factor"; headers: Headers };

/**
 * Runs a Better Auth call made with `asResponse`. Errors thrown by hooks (our TOTP replay check)
 * escape `asResponse`; they become the same kind of JSON answer here.
 */
export async function answerOf(call: () => Promise<Response>): Promise<Response> {
  try {
    return await call();
  } catch (error) {
    if (!isAPIError(error)) throw error;
    return new Response(JSON.stringify({ code: error.body?.code, message: error.message }), {
      status: error.statusCode,
      headers: { "content-type": "application/json" },
    });
  }
}

/** The Set-Cookie headers of a Better Auth response, to forward on our own response. */
export function cookiesOf(response: Response): Headers {
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

/** The backend's own message, under the title 'Error' (SPEC section 8). */
async function failure(response: Response, fallback = "Something went wrong. Please try again.") {
  let message = fallback;
  try {
    const body = (await response.json()) as { message?: string };
    if (body?.message) message = body.message;
  } catch {
    // not JSON: keep the fallback
  }
  return {
    type: "notice",
    notice: { kind: "error", title: "Error", description: message },
    status: response.status >= 500 ? 500 : 400,
  } satisfies AuthOutcome;
}

/**
 * Where a signed-in user belongs (SPEC section 2): office staff on /employee, a handyman on
 * 'Today' (/employee/today, ADR 047), customers with a
 * home on /dashboard, everyone else back on /auth, where the property setup dialog opens.
 */
export async function destinationFor(userId: string) {
  const [row] = await db()
    .select({ isEmployee: profiles.isEmployee, staffRole: profiles.staffRole, homeId: homes.id })
    .from(profiles)
    .leftJoin(homes, eq(homes.customerId, profiles.userId))
    .where(eq(profiles.userId, userId))
    .limit(1);
  if (row?.isEmployee)
    return row.staffRole === "handyman" ? href("/employee/today") : href("/employee");
  if (row?.homeId) return href("/dashboard");
  return href("/auth");
}

export async function signUp(
  input: {
    firstName: string;
    lastName: string;
    email: string;
    password: string;
    mobilePhone?: string;
    textMe?: "on";
  },
  request: Request,
  clientAddress: string,
): Promise<AuthOutcome> {
  const limit = await limitAuthAttempt(input.email, clientAddress);
  if (!limit.allowed)
    return { type: "notice", notice: tooManyAttempts(limit.minutes), status: 429 };
  // firstName and lastName ride along for the profile row (auth.server.ts databaseHooks).
  const body = {
    name: fullName(input.firstName, input.lastName),
    email: input.email,
    password: input.password,
    firstName: input.firstName,
    lastName: input.lastName,
    // The profile's mobile and the consent to texts, recorded with the account (auth.server.ts).
    mobilePhone: input.mobilePhone,
    textMe: input.textMe === "on",
    callbackURL: VERIFIED_LANDING,
  };
  const response = await answerOf(() =>
    auth().api.signUpEmail({
      body,
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (!response.ok) return failure(response);
  await limit.succeededSignUp();
  // The same answer for a new address and a known one (no account enumeration).
  return {
    type: "notice",
    notice: {
      kind: "success",
      title: "Success",
      description: "Please check your email for the confirmation link.",
    },
  };
}

export async function signIn(
  input: { email: string; password: string },
  request: Request,
  clientAddress: string,
): Promise<AuthOutcome> {
  const device = knownDevice(request, input.email);
  const limit = await limitAuthAttempt(input.email, clientAddress, device);
  if (!limit.allowed)
    return { type: "notice", notice: tooManyAttempts(limit.minutes), status: 429 };
  const response = await answerOf(() =>
    auth().api.signInEmail({
      body: { email: input.email, password: input.password, callbackURL: VERIFIED_LANDING },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (!response.ok) {
    // Better Auth says so only after checking the password, and has just sent a new link.
    if (response.status === 403 && (await codeOf(response)) === "EMAIL_NOT_VERIFIED")
      return {
        type: "notice",
        notice: NOT_CONFIRMED,
        status: 403,
        offerResend: true,
        ordinary: true,
      };
    return failure(response);
  }
  // The password was right: the attempt does not count against anyone.
  await limit.succeededSignIn();
  const body = (await response.json()) as { twoFactorRedirect?: boolean; user?: { id: string } };
  const headers = cookiesOf(response);
  // This browser now knows the password: strangers' failures no longer hold it (ADR 021).
  headers.append("Set-Cookie", knownDeviceCookie(input.email, device));
  if (body.twoFactorRedirect) return { type: "two-factor", headers };
  if (!body.user) return failure(response);
  return { type: "redirect", to: await destinationFor(body.user.id), headers };
}

export async function verifySecondFactor(
  input: { intent: "verify-totp" | "verify-backup-code"; code: string },
  request: Request,
): Promise<AuthOutcome> {
  const options = {
    body: { code: input.code },
    headers: request.headers,
    asResponse: true as const,
  };
  const response = await answerOf(() =>
    input.intent === "verify-totp"
      ? auth().api.verifyTOTP(options)
      : auth().api.verifyBackupCode(options),
  );
  if (response.status === 429) {
    const { message } = (await response.json()) as { message: string };
    return {
      type: "notice",
      notice: { kind: "error", title: "Too many attempts", description: message },
      status: 429,
    };
  }
  if (!response.ok) return failure(response);
  const body = (await response.json()) as { user?: { id: string } };
  if (!body.user) return failure(response);
  return { type: "redirect", to: await destinationFor(body.user.id), headers: cookiesOf(response) };
}

async function codeOf(response: Response): Promise<string | undefined> {
  try {
    return ((await response.clone().json()) as { code?: string })?.code;
  } catch {
    return undefined;
  }
}

export const NOT_CONFIRMED: Notice = {
  kind: "error",
  title: "Please confirm your e-mail address",
  description:
    "Your account is waiting for its e-mail confirmation. We have just sent you a new link: open it, then sign in. Nothing arrived? Check your spam folder or choose 'Resend confirmation e-mail'.",
};

const CONFIRMATION_SENT: Notice = {
  kind: "success",
  title: "Confirmation e-mail sent",
  description:
    "If this address has an account waiting for confirmation, a new link is on its way. Open it, then sign in.",
};

/**
 * 'Resend confirmation e-mail': rate-limited like the other account e-mails, and the same answer
 * whether or not the address has an account waiting (no account enumeration).
 */
export async function resendConfirmation(
  email: string,
  clientAddress: string,
): Promise<AuthOutcome> {
  const limit = await limitAccountMail(email, clientAddress);
  if (!limit.allowed)
    return {
      type: "notice",
      notice: tooManyAttempts(limit.minutes),
      status: 429,
      offerResend: true,
    };
  const response = await answerOf(() =>
    auth().api.sendVerificationEmail({
      body: { email, callbackURL: VERIFIED_LANDING },
      asResponse: true,
    }),
  );
  // An address already confirmed is refused by Better Auth; it gets the same answer.
  if (!response.ok && response.status >= 500) {
    logger.warn({ status: response.status }, "confirmation e-mail request failed");
    return failure(response);
  }
  return { type: "notice", notice: CONFIRMATION_SENT, offerResend: true };
}

const RESET_SENT: Notice = {
  kind: "success",
  title: "Reset link sent",
  description: "Please check your email for the password reset link.",
};

export async function requestPasswordReset(
  email: string,
  clientAddress: string,
): Promise<AuthOutcome> {
  const limit = await limitAccountMail(email, clientAddress);
  if (!limit.allowed)
    return { type: "notice", notice: tooManyAttempts(limit.minutes), status: 429 };
  void startPasswordReset(email);
  // The same answer, after the same work, for known and unknown addresses.
  return { type: "notice", notice: RESET_SENT };
}

const pendingResets = new Set<Promise<void>>();

/**
 * Better Auth's reset request, not waited for: for a known address it stores a token and queues
 * the e-mail, for an unknown one it does almost nothing, and a person asking must not be able
 * to tell the two apart by how long the answer takes. Failures are logged.
 */
export function startPasswordReset(email: string): Promise<void> {
  const work = answerOf(() =>
    auth().api.requestPasswordReset({
      body: { email, redirectTo: RESET_LANDING },
      asResponse: true,
    }),
  )
    .then((response) => {
      if (!response.ok) logger.warn({ status: response.status }, "password reset request failed");
    })
    .catch((error: unknown) => {
      logger.error({ err: (error as Error).message }, "password reset request failed");
    })
    .finally(() => pendingResets.delete(work));
  pendingResets.add(work);
  return work;
}

/** Reset requests still being worked on (tests wait for them; a shutdown may too). */
export function pendingPasswordResets(): Promise<void> {
  return Promise.all(pendingResets).then(() => {});
}

export async function resetPassword(token: string, password: string): Promise<AuthOutcome> {
  const response = await answerOf(() =>
    auth().api.resetPassword({
      body: { newPassword: password, token },
      asResponse: true,
    }),
  );
  if (!response.ok) {
    const outcome = await failure(response);
    if (/invalid token/i.test(outcome.notice.description))
      outcome.notice.description =
        "This password reset link is invalid or has expired. Please ask for a new one.";
    return outcome;
  }
  return { type: "redirect", to: `${href("/auth")}?notice=password-updated` };
}

/** Fixed notices that a redirect can name in `?notice=` (never free text from the URL). */
export const URL_NOTICES: Record<string, Notice> = {
  "password-updated": {
    kind: "success",
    title: "Password updated",
    description: "Sign in with your new password.",
  },
  "signed-out": {
    kind: "success",
    title: "Signed out",
    description: "You have been successfully signed out.",
  },
  "reset-link-invalid": {
    kind: "error",
    title: "Error",
    description: "This password reset link is invalid or has expired. Please ask for a new one.",
  },
  // 'Sign in with a text code' (ADR 086): the same words whether or not the number has an account.
  "code-sent": {
    kind: "success",
    title: "Check your texts",
    description: "If this number belongs to an account, we sent a code. It works for 5 minutes.",
  },
  "text-code-expired": {
    kind: "error",
    title: "Error",
    description: "Your sign-in took too long. Please ask for a new code.",
  },
  "two-factor-expired": {
    kind: "error",
    title: "Error",
    description: "Your sign-in took too long. Please sign in again.",
  },
};
