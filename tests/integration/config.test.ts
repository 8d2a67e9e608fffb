import { describe, expect, it } from "vitest";
import { ConfigError, loadEnv } from "~/lib/env.server";

function problems(env: Record<string, string>) {
  try {
    loadEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error("expected a configuration error");
}

describe("configuration", () => {
  it("has working defaults for one machine", () => {
    const config = loadEnv({});
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.dataDir).toMatch(/data$/);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.trustProxy).toBe(false);
    expect(config.s3).toBeUndefined();
  });

  it("derives the public URL from the port and strips a trailing slash", () => {
    expect(loadEnv({ PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
    expect(loadEnv({ PUBLIC_URL: "https://example.com/" }).publicUrl).toBe("https://example.com");
  });

  it.each([
    ["PORT", "eighty", "PORT must be a whole number"],
    ["PORT", "70000", "PORT must be between 0 and 65535"],
    ["PUBLIC_URL", "example.com", "PUBLIC_URL must be a URL"],
    [
      "DATABASE_URL",
      "mysql://x@y/z",
      "DATABASE_URL must be a URL starting with postgres:// or postgresql://",
    ],
    ["SMTP_URL", "http://mail", "SMTP_URL must be a URL starting with smtp:// or smtps://"],
    ["AUTH_SECRET", "short", "AUTH_SECRET must be at least 32 characters long"],
    ["TRUST_PROXY", "maybe", "TRUST_PROXY must be true, false"],
    ["SEED_DEMO", "sometimes", "SEED_DEMO must be true or false"],
    ["BUSINESS_PHONE", "555", "BUSINESS_PHONE must be a phone number"],
    ["BUSINESS_EMAIL", "not-an-email", "BUSINESS_EMAIL must be an e-mail address"],
    ["MAIL_FROM", "nobody", "MAIL_FROM must be an e-mail address"],
    ["LEAD_WEBHOOK_URL", "ftp://hooks", "LEAD_WEBHOOK_URL must be a URL"],
    ["OUTBOX_POLL_MS", "soon", "OUTBOX_POLL_MS must be a whole number of milliseconds"],
  ])("refuses %s=%s with a message naming it", (name, value, message) => {
    expect(problems({ [name]: value })).toContain(message);
  });

  it("reports every problem at once", () => {
    const message = problems({ PORT: "x", SMTP_URL: "nope" });
    expect(message).toContain("PORT");
    expect(message).toContain("SMTP_URL");
  });

  it("needs both S3 keys or neither", () => {
    expect(problems({ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "id" })).toContain(
      "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together",
    );
  });

  it("requires AUTH_SECRET in production on PostgreSQL", () => {
    expect(problems({ NODE_ENV: "production", DATABASE_URL: "postgres://u@h/db" })).toContain(
      "AUTH_SECRET is required",
    );
  });

  it("parses TRUST_PROXY forms", () => {
    expect(loadEnv({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadEnv({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadEnv({ TRUST_PROXY: "loopback" }).trustProxy).toBe("loopback");
  });
});
