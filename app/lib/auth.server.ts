import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor } from "better-auth/plugins";
import { db } from "~/db/client.server";
import * as schema from "~/db/schema";
import { authSecret } from "./auth-secret.server";
import { business } from "./business.server";
import { env } from "./env.server";
import { emailLayout, escapeHtml } from "./mail.server";
import { enqueue } from "./outbox.server";

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
    // The spec's limits are enforced by our own atomic limiter (rate-limit.server.ts).
    rateLimit: { enabled: false },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      async sendResetPassword({ user, url }) {
        await enqueue(db(), "email", {
          to: user.email,
          subject: `Reset your ${business().name} password`,
          text: `Someone asked to reset the password of your ${business().name} account.\n\nChoose a new password here (the link works for one hour):\n${url}\n\nIf you did not ask for this, ignore this e-mail; your password stays as it is.`,
          html: emailLayout({
            heading: "Reset your password",
            paragraphs: [
              `Someone asked to reset the password of your ${business().name} account. The link works for one hour.`,
              "If you did not ask for this, ignore this e-mail; your password stays as it is.",
            ],
            action: { label: "Choose a new password", url },
          }),
        });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      async sendVerificationEmail({ user, url }) {
        await enqueue(db(), "email", {
          to: user.email,
          subject: `Confirm your ${business().name} account`,
          text: `Welcome to ${business().name}!\n\nConfirm your e-mail address to finish creating your account:\n${url}\n\nIf you did not sign up, ignore this e-mail.`,
          html: emailLayout({
            heading: `Welcome to ${escapeHtml(business().name)}`,
            paragraphs: [
              "Confirm your e-mail address to finish creating your account.",
              "If you did not sign up, ignore this e-mail.",
            ],
            action: { label: "Confirm my e-mail", url },
          }),
        });
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    plugins: [twoFactor({ issuer: business().name })],
  });
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
