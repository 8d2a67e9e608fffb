import { href } from "react-router";
import crypto from "node:crypto";
import { betterAuth, type BetterAuthOptions } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { symmetricDecrypt } from "better-auth/crypto";
import { twoFactor } from "better-auth/plugins";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { db } from "~/db/client.server";
import * as schema from "~/db/schema";
import { authSecret } from "./auth-secret.server";
import { business } from "./business.server";
import { env } from "./env.server";
import { logger } from "./logger.server";
import { emailLayout, escapeHtml } from "./mail.server";
import { enqueue } from "./outbox.server";
import { nameSchema, tidyName } from "./validation";
import { checkNewPassword, checkUserBody, checkUserFields } from "./auth-user-fields.server";
import { hit, refund } from "./rate-limit.server";
import { textCodeSession } from "./text-code-session.server";
import { saveTextConsent } from "./texts.server";

/** Where the e-mailed links land (SPEC section 2 and DESIGN decision 10). */
export const VERIFIED_LANDING = href("/dashboard");
export const RESET_LANDING = href("/auth");

/** Rewrites the callbackURL of a Better Auth link: our landing pages never depend on input. */
function withCallback(url: string, callbackURL: string) {
  const parsed = new URL(url);
  parsed.searchParams.set("callbackURL", callbackURL);
  return parsed.toString();
}

function createAuth() {
  const publicUrl = env().publicUrl;
  return betterAuth({
    appName: business().name,
    baseURL: publicUrl,
    basePath: "/api/auth",
    secret: authSecret(),
    trustedOrigins: [publicUrl],
    database: drizzleAdapter(db(), {
      provider: "pg",
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        twoFactor: schema.twoFactor,
      },
    }),
    advanced: {
      useSecureCookies: publicUrl.startsWith("https://"),
      database: { generateId: () => crypto.randomUUID() },
      ipAddress: { disableIpTracking: false },
    },
    // The spec's limits are enforced by our own atomic limiter (features/accounts/rate-limit).
    rateLimit: { enabled: false },
    emailAndPassword: emailAndPasswordOptions(publicUrl),
    emailVerification: emailVerificationOptions(),
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    databaseHooks: userDatabaseHooks(),
    hooks: requestHooks(),
    // The two-factor plugin's after-hook watches the text-code sign-in's path too (ADR 086).
    plugins: [twoFactor({ issuer: business().name }), textCodeSession()],
  });
}

/** Sign-up and sign-in by password, and the e-mails of a reset and of a repeated sign-up. */
function emailAndPasswordOptions(publicUrl: string): BetterAuthOptions["emailAndPassword"] {
  return {
    enabled: true,
    requireEmailVerification: true,
    minPasswordLength: 8,
    maxPasswordLength: 128,
    revokeSessionsOnPasswordReset: true,
    resetPasswordTokenExpiresIn: 60 * 60,
    async sendResetPassword({ user, url }) {
      const link = withCallback(url, RESET_LANDING);
      await enqueue(db(), "email", {
        to: user.email,
        subject: `Reset your ${business().name} password`,
        text: `Someone asked to reset the password of your ${business().name} account.\n\nChoose a new password here (the link works for one hour):\n${link}\n\nIf you did not ask for this, ignore this e-mail; your password stays as it is.`,
        html: emailLayout({
          heading: "Reset your password",
          paragraphs: [
            `Someone asked to reset the password of your ${business().name} account. The link works for one hour.`,
            "If you did not ask for this, ignore this e-mail; your password stays as it is.",
          ],
          action: { label: "Choose a new password", url: link },
        }),
      });
    },
    // Sign-up answers the same whether or not the address has an account; the owner learns
    // of the attempt by e-mail instead of the person at the form.
    async onExistingUserSignUp({ user }) {
      const signIn = `${publicUrl}/auth`;
      await enqueue(db(), "email", {
        to: user.email,
        subject: `Your ${business().name} account`,
        text: `Someone tried to create a ${business().name} account with this e-mail address, which already has one.\n\nIf it was you, sign in here (use "Forgot your password?" if you need a new password):\n${signIn}\n\nIf it was not you, ignore this e-mail; nothing has changed.`,
        html: emailLayout({
          heading: "You already have an account",
          paragraphs: [
            `Someone tried to create a ${business().name} account with this e-mail address, which already has one.`,
            'If it was you, sign in (use "Forgot your password?" if you need a new password). If it was not you, ignore this e-mail; nothing has changed.',
          ],
          action: { label: "Sign in", url: signIn },
        }),
      });
    },
  };
}

/** The confirmation e-mail sent at sign-up (and at a sign-in before confirming). */
function emailVerificationOptions(): BetterAuthOptions["emailVerification"] {
  return {
    sendOnSignUp: true,
    sendOnSignIn: true,
    autoSignInAfterVerification: true,
    expiresIn: 60 * 60 * 24,
    async sendVerificationEmail({ user, url }) {
      const link = withCallback(url, VERIFIED_LANDING);
      await enqueue(db(), "email", {
        to: user.email,
        subject: `Confirm your ${business().name} account`,
        text: `Welcome to ${business().name}!\n\nConfirm your e-mail address to finish creating your account:\n${link}\n\nIf you did not sign up, ignore this e-mail.`,
        html: emailLayout({
          heading: `Welcome to ${escapeHtml(business().name)}`,
          paragraphs: [
            "Confirm your e-mail address to finish creating your account.",
            "If you did not sign up, ignore this e-mail.",
          ],
          action: { label: "Confirm my e-mail", url: link },
        }),
      });
    },
  };
}

/** The user row's hooks: the product's rules on every write, its profile and its leads. */
function userDatabaseHooks(): BetterAuthOptions["databaseHooks"] {
  return {
    user: {
      // Whatever endpoint writes the user row, the product's rules hold (a new account has no
      // photo yet; an update's image can only be the user's own uploaded photo).
      update: {
        async before(data, context) {
          const userId = context?.context.session?.user.id ?? null;
          return { data: checkUserFields(data, userId) };
        },
        // Once the address is confirmed, the leads with it are this person's (ADR 060): an
        // invited lead who signs up is linked here, never at sign-up (nothing proven yet).
        async after(user) {
          if (!user.emailVerified) return;
          await db()
            .update(schema.leads)
            .set({ customerId: user.id })
            .where(
              and(
                eq(schema.leads.email, user.email.toLowerCase()),
                isNull(schema.leads.customerId),
              ),
            );
        },
      },
      create: {
        async before(user) {
          return { data: checkUserFields(user, null) };
        },
        // Every account gets its profile row; is_employee keeps its default (false) whatever
        // the request carried: only the admin CLI grants it.
        async after(user, context) {
          const body = (context?.body ?? {}) as Record<string, unknown>;
          const names = profileNames(user.name, body.firstName, body.lastName);
          await db()
            .insert(schema.profiles)
            .values({ userId: user.id, ...names })
            .onConflictDoNothing();
          if (typeof body.mobilePhone === "string" && body.mobilePhone) {
            await saveTextConsent(db(), user.id, {
              mobilePhone: body.mobilePhone,
              consent: body.textMe === true,
              source: "sign-up",
            });
          }
        },
      },
    },
  };
}

/** Before every request: the product's field and password rules, and the second factor's limits. */
function requestHooks(): BetterAuthOptions["hooks"] {
  return {
    before: createAuthMiddleware(async (ctx) => {
      checkNewPassword(ctx.path, ctx.body);
      if (ctx.path === "/update-user" || ctx.path === "/sign-up/email") {
        const session =
          ctx.path === "/update-user" ? await getSessionFromCtx(ctx).catch(() => null) : null;
        checkUserBody(ctx.path, ctx.body, session?.user.id ?? null);
      }
      if (!SECOND_FACTOR_PATHS.has(ctx.path)) return;
      const userId = await twoFactorUserId(ctx);
      if (!userId) return; // Better Auth refuses the request itself.
      const attempt = await limitSecondFactor(userId);
      if (ctx.path === "/two-factor/verify-totp" && (await claimTotpStep(ctx, userId)))
        await attempt.succeeded();
    }),
  };
}

/** First and last name from the sign-up form, or split from the display name. */
function profileNames(name: string, firstName: unknown, lastName: unknown) {
  const first = nameSchema.safeParse(firstName);
  const last = nameSchema.safeParse(lastName);
  if (first.success && last.success) return { firstName: first.data, lastName: last.data };
  const parts = tidyName(name).split(" ");
  return { firstName: parts[0] || null, lastName: parts.slice(1).join(" ") || null };
}

const TOTP_PERIOD_MS = 30_000;

/** RFC 4226 HOTP over the secret's UTF-8 bytes, as Better Auth's TOTP computes it. */
function hotp(secret: string, counter: number, digits = 6) {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = crypto.createHmac("sha1", Buffer.from(secret, "utf8")).update(message).digest();
  const offset = digest[digest.length - 1] & 0x0f;
  const value = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 10 ** digits).padStart(digits, "0");
}

/** The time step (within one step of now, Better Auth's window) whose code this is. */
export function matchingTotpStep(secret: string, code: string, now = Date.now()) {
  const current = Math.floor(now / TOTP_PERIOD_MS);
  for (const step of [current - 1, current, current + 1]) {
    const expected = hotp(secret, step);
    if (
      expected.length === code.length &&
      crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(code))
    )
      return step;
  }
  return null;
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

const SECOND_FACTOR_PATHS = new Set([
  "/two-factor/verify-totp",
  "/two-factor/verify-backup-code",
  "/two-factor/verify-otp",
]);

/**
 * Codes are guessable in a way passwords are not (a million of them, three valid at a time):
 * 5 tries per account per 15 minutes, the sign-in numbers, however many times the password was
 * entered to get here. Counted before the code is looked at; a right TOTP code is taken back.
 */
async function limitSecondFactor(userId: string) {
  const key = `two-factor:user:${userId}`;
  const now = Date.now();
  const result = await hit(key, SECOND_FACTOR_LIMIT, SECOND_FACTOR_WINDOW_MS, now);
  if (!result.allowed) {
    throw new APIError("TOO_MANY_REQUESTS", {
      message: `Please wait ${result.minutes} minutes before trying again.`,
      code: "TOO_MANY_ATTEMPTS",
    });
  }
  return { succeeded: () => refund(key, SECOND_FACTOR_WINDOW_MS, now) };
}

const SECOND_FACTOR_LIMIT = 5;
const SECOND_FACTOR_WINDOW_MS = 15 * 60_000;

/**
 * Whether this is a right TOTP code, used for the first time. Better Auth accepts the same code
 * again within its window (docs/design.md pitfalls): each accepted code moves `last_used_step` forward
 * in one atomic UPDATE, so a code (or an older one) is refused the second time, even by two
 * requests racing each other.
 */
async function claimTotpStep(ctx: HookContext, userId: string): Promise<boolean> {
  const code = String((ctx.body as { code?: unknown } | undefined)?.code ?? "");
  if (!/^\d{6}$/.test(code)) return false;
  const [row] = await db()
    .select({ id: schema.twoFactor.id, secret: schema.twoFactor.secret })
    .from(schema.twoFactor)
    .where(eq(schema.twoFactor.userId, userId))
    .limit(1);
  if (!row) return false;
  let secret: string;
  try {
    secret = await symmetricDecrypt({ key: ctx.context.secretConfig, data: row.secret });
  } catch (error) {
    logger.error({ err: (error as Error).message }, "two-factor secret could not be decrypted");
    return false;
  }
  const step = matchingTotpStep(secret, code);
  if (step === null) return false; // a wrong code: Better Auth refuses it, the try counts
  const claimed = await db()
    .update(schema.twoFactor)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(schema.twoFactor.id, row.id),
        or(isNull(schema.twoFactor.lastUsedStep), lt(schema.twoFactor.lastUsedStep, step)),
      ),
    )
    .returning({ id: schema.twoFactor.id });
  if (claimed.length === 0) {
    throw new APIError("UNAUTHORIZED", {
      message: "This code has already been used. Wait for the next code from your app.",
      code: "TOTP_CODE_REUSED",
    });
  }
  return true;
}

/** The user a TOTP verification is for: as Better Auth decides, the session's, else the pending sign-in's. */
async function twoFactorUserId(ctx: HookContext): Promise<string | null> {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) return session.user.id;
  const cookie = ctx.context.createAuthCookie("two_factor");
  const pending = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!pending) return null;
  const verification = await ctx.context.internalAdapter.findVerificationValue(pending);
  return verification?.value ?? null;
}

export type Auth = ReturnType<typeof createAuth>;

const authKey = Symbol.for("peachtree-handyman.auth");
type GlobalWithAuth = typeof globalThis & { [authKey]?: Auth };

/** The Better Auth instance, created on first use (after the database is open). */
export function auth(): Auth {
  const g = globalThis as GlobalWithAuth;
  g[authKey] ??= createAuth();
  return g[authKey];
}

/** Tests that reopen the database drop the instance bound to the old one. */
export function resetAuthForTests() {
  (globalThis as GlobalWithAuth)[authKey] = undefined;
}
