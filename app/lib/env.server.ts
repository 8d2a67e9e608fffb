import path from "node:path";
import { z } from "zod";
import { isValidEmail } from "./validation";

/**
 * Every environment variable the product reads, validated in one place.
 * A bad value stops start-up with a message naming the variable.
 */

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const booleanFlag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => ["true", "false", "1", "0", "yes", "no", ""].includes(value), {
    message: "must be true or false",
  })
  .transform((value) => (value === "" ? undefined : ["true", "1", "yes"].includes(value)))
  .optional();

function urlWithProtocols(protocols: string[]) {
  return optionalString.refine(
    (value) => {
      if (value === undefined) return true;
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => p + "//").join(" or ")}` },
  );
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: optionalString
    .refine((value) => value === undefined || /^\d+$/.test(value), {
      message: "must be a whole number",
    })
    .transform((value) => (value === undefined ? 3000 : Number(value)))
    .refine((value) => value >= 0 && value <= 65535, { message: "must be between 0 and 65535" }),
  HOST: optionalString,
  PUBLIC_URL: urlWithProtocols(["http:", "https:"]),
  DATA_DIR: optionalString,
  DATABASE_URL: urlWithProtocols(["postgres:", "postgresql:"]),
  AUTH_SECRET: optionalString.refine((value) => value === undefined || value.length >= 32, {
    message: "must be at least 32 characters long",
  }),
  SMTP_URL: urlWithProtocols(["smtp:", "smtps:"]),
  MAIL_FROM: optionalString.refine((value) => value === undefined || isValidEmail(value), {
    message: "must be an e-mail address such as hello@example.com",
  }),
  LEAD_WEBHOOK_URL: urlWithProtocols(["http:", "https:"]),
  SCHEDULER_EMBED_URL: urlWithProtocols(["https:", "http:"]),
  S3_BUCKET: optionalString,
  S3_ENDPOINT: urlWithProtocols(["http:", "https:"]),
  S3_REGION: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  TRUST_PROXY: optionalString
    .refine(
      (value) =>
        value === undefined ||
        ["true", "false", "1", "0", "loopback", "uniquelocal"].includes(value) ||
        /^\d+$/.test(value) ||
        /^[\d.:/a-f,\s]+$/i.test(value),
      {
        message:
          "must be true, false, a number of proxy hops, loopback, or a comma-separated list of proxy addresses",
      },
    )
    .transform((value) => value ?? "false"),
  SEED_DEMO: booleanFlag,
  BUSINESS_NAME: optionalString,
  BUSINESS_PHONE: optionalString.refine(
    (value) => value === undefined || value.replace(/\D/g, "").length >= 10,
    { message: "must be a phone number with at least 10 digits" },
  ),
  BUSINESS_EMAIL: optionalString.refine((value) => value === undefined || isValidEmail(value), {
    message: "must be an e-mail address",
  }),
  SECOND_HANDYMAN_FEE: optionalString.refine(
    (v) => v === undefined || (/^\d{1,4}(\.\d{2})?$/.test(v) && Number(v) > 0),
    { message: "must be a price in dollars above 0, such as 95 or 95.50" },
  ),
  TWILIO_ACCOUNT_SID: optionalString,
  TWILIO_AUTH_TOKEN: optionalString,
  TWILIO_FROM: optionalString.refine(
    (value) => value === undefined || /^\+[1-9]\d{6,14}$/.test(value),
    { message: "must be a phone number in E.164 form, such as +14045550142" },
  ),
  TWILIO_API_URL: urlWithProtocols(["http:", "https:"]),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: urlWithProtocols(["http:", "https:"]),
  PAST_DUE_GRACE_DAYS: optionalString.refine(
    (v) => v === undefined || (/^\d+$/.test(v) && Number(v) <= 90),
    { message: "must be a whole number of days from 0 to 90" },
  ),
  PAST_DUE_AFTER_DAYS: optionalString.refine(
    (v) => v === undefined || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 90),
    { message: "must be a whole number of days from 1 to 90" },
  ),
  OFFICE_MOBILE: optionalString.refine(
    (value) => value === undefined || value.replace(/\D/g, "").length >= 10,
    { message: "must be a phone number with at least 10 digits" },
  ),
  OUTBOX_POLL_MS: optionalString.refine((v) => v === undefined || /^\d+$/.test(v), {
    message: "must be a whole number of milliseconds",
  }),
  OUTBOX_BASE_BACKOFF_MS: optionalString.refine((v) => v === undefined || /^\d+$/.test(v), {
    message: "must be a whole number of milliseconds",
  }),
  OUTBOX_MAX_BACKOFF_MS: optionalString.refine((v) => v === undefined || /^\d+$/.test(v), {
    message: "must be a whole number of milliseconds",
  }),
  OUTBOX_MAX_ATTEMPTS: optionalString.refine(
    (v) => v === undefined || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 1000),
    { message: "must be a whole number of attempts from 1 to 1000" },
  ),
  SHUTDOWN_DRAIN_MS: optionalString.refine((v) => v === undefined || /^\d+$/.test(v), {
    message: "must be a whole number of milliseconds",
  }),
  SHUTDOWN_TIMEOUT_MS: optionalString.refine((v) => v === undefined || /^\d+$/.test(v), {
    message: "must be a whole number of milliseconds",
  }),
  IDLE_MEMORY_TRIM_MS: optionalString.refine((v) => v === undefined || /^\d+$/.test(v), {
    message: "must be a whole number of milliseconds",
  }),
  PHOTO_DECODE_CONCURRENCY: optionalString.refine(
    (v) => v === undefined || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 64),
    { message: "must be a whole number from 1 to 64" },
  ),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .optional()
    .default("info"),
});

export type Env = ReturnType<typeof loadEnv>;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

export function loadEnv(source: Record<string, string | undefined> = process.env) {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`),
    );
  }
  const env = result.data;
  const problems: string[] = [];
  if (env.S3_BUCKET && !env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY) {
    problems.push("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together");
  }
  const twilioSettings = [env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, env.TWILIO_FROM];
  if (twilioSettings.some(Boolean) && !twilioSettings.every(Boolean)) {
    problems.push("TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must be set together");
  }
  if (!env.STRIPE_SECRET_KEY !== !env.STRIPE_WEBHOOK_SECRET) {
    problems.push("STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together");
  }
  if (env.NODE_ENV === "production" && env.DATABASE_URL && !env.AUTH_SECRET) {
    problems.push("AUTH_SECRET is required in production with DATABASE_URL");
  }
  if (problems.length) throw new ConfigError(problems);

  const port = env.PORT;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, "");
  const dataDir = path.resolve(env.DATA_DIR ?? "./data");
  return {
    nodeEnv: env.NODE_ENV,
    isProduction: env.NODE_ENV === "production",
    port,
    host: env.HOST,
    publicUrl,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    authSecret: env.AUTH_SECRET,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    leadWebhookUrl: env.LEAD_WEBHOOK_URL,
    schedulerEmbedUrl: env.SCHEDULER_EMBED_URL,
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION ?? "us-east-1",
          accessKeyId: env.S3_ACCESS_KEY_ID,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        }
      : undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    seedDemo: env.SEED_DEMO,
    business: {
      name: env.BUSINESS_NAME,
      phone: env.BUSINESS_PHONE,
      email: env.BUSINESS_EMAIL,
      /** The extra fee for a second handyman on a visit (ADR 091), in cents. */
      secondHandymanFeeCents:
        env.SECOND_HANDYMAN_FEE === undefined
          ? undefined
          : Math.round(Number(env.SECOND_HANDYMAN_FEE) * 100),
    },
    /** Texts go through Twilio when set; otherwise each is written under DATA_DIR/sms/. */
    twilio:
      env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_FROM
        ? {
            accountSid: env.TWILIO_ACCOUNT_SID,
            authToken: env.TWILIO_AUTH_TOKEN,
            from: env.TWILIO_FROM,
            /** Where the SDK sends its API calls (a local stand-in in tests). */
            apiUrl: env.TWILIO_API_URL?.replace(/\/+$/, ""),
          }
        : undefined,
    /**
     * Cards through Stripe when set (both keys); otherwise payments are recorded by hand
     * (app/features/payments, ADR 053). The server starts with them even if Stripe is down.
     */
    stripe:
      env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: env.STRIPE_SECRET_KEY,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET,
            /** Where the SDK sends its API calls (a local stand-in in tests). */
            apiUrl: env.STRIPE_API_URL?.replace(/\/+$/, ""),
          }
        : undefined,
    /** Days a 'Past due' membership may still book before booking waits until paid. */
    pastDueGraceDays: Number(env.PAST_DUE_GRACE_DAYS ?? 14),
    /**
     * Days a charge may stay unpaid, from its period's first day, before a membership staff
     * collect by hand (no card processor) goes 'Past due'.
     */
    pastDueAfterDays: Number(env.PAST_DUE_AFTER_DAYS ?? 10),
    /** The office's mobile: each office alert is also texted there. */
    officeMobile: env.OFFICE_MOBILE,
    logLevel: env.LOG_LEVEL,
    shutdownDrainMs: Number(env.SHUTDOWN_DRAIN_MS ?? 1_500),
    /** From SIGTERM to the forced exit, whatever is still open. */
    shutdownTimeoutMs: Number(env.SHUTDOWN_TIMEOUT_MS ?? 20_000),
    /** Quiet time after which the server hands memory back to the system; 0: never (ADR 078). */
    idleMemoryTrimMs: Number(env.IDLE_MEMORY_TRIM_MS ?? 5_000),
    /** Photos decoded at once by this process (ADR 022); the others wait their turn. */
    photoDecodeConcurrency: Number(env.PHOTO_DECODE_CONCURRENCY ?? 2),
    outbox: {
      /** An upper bound on the worker's sleep; unset, it sleeps until work is due (ADR 018). */
      pollMs: env.OUTBOX_POLL_MS === undefined ? undefined : Number(env.OUTBOX_POLL_MS),
      baseBackoffMs: Number(env.OUTBOX_BASE_BACKOFF_MS ?? 2_000),
      maxBackoffMs: Number(env.OUTBOX_MAX_BACKOFF_MS ?? 5 * 60_000),
      /** Tries of an item before it is given up and listed under 'Failed deliveries'. */
      maxAttempts: Number(env.OUTBOX_MAX_ATTEMPTS ?? 20),
    },
  };
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

let cached: Env | undefined;

/** The validated environment of this process (read once). */
export function env(): Env {
  cached ??= loadEnv();
  return cached;
}

/** Tests change process.env between cases; they call this to re-read it. */
export function resetEnvForTests() {
  cached = undefined;
}
