import crypto from "node:crypto";
import { test as base, expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "~/db/schema";
import type { Database } from "~/db/client.server";
import { createHome, createUser, type NewHome } from "../../server/seed/factories";
import { BASE_URL, SINK_URL, e2eDatabaseUrl } from "../support/ports";
import type { CapturedMail, WebhookCall } from "../support/sink";
import type { StandInText } from "../support/twilio-stand-in";

export { expect };

export const PASSWORD = "Sturdy-Pass-2026!";

/**
 * Toasts and their region: sonner's on the pages React runs, the public pages' own markup on
 * those (ADR 030). Both name their close button "Close toast".
 */
export const TOAST = "[data-sonner-toast], [data-toast]";
export const TOASTER = "[data-sonner-toaster], [data-toaster]";

export function uniqueEmail(prefix = "user") {
  return `${prefix}-${crypto.randomBytes(5).toString("hex")}@example.com`;
}

/** A made-up client address, so per-address rate limits count this test alone. */
function fakeIp() {
  const b = crypto.randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2] || 1}`;
}

/** The test SMTP receiver and webhook receiver (tests/support/sink.ts). */
export const sink = {
  /** Texts the server sent through Twilio's SDK to the sink's stand-in. */
  async texts(to?: string) {
    const all = (await (await fetch(`${SINK_URL}/texts`)).json()) as StandInText[];
    return to ? all.filter((t) => t.to === to) : all;
  },
  async mails(to: string): Promise<CapturedMail[]> {
    const response = await fetch(`${SINK_URL}/mail?to=${encodeURIComponent(to)}`);
    return (await response.json()) as CapturedMail[];
  },
  /** Waits for a message to `to` whose subject matches. */
  async waitForMail(to: string, subject: RegExp, timeoutMs = 15_000): Promise<CapturedMail> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = (await sink.mails(to)).filter((m) => subject.test(m.subject));
      if (found.length) return found[found.length - 1];
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`No e-mail to ${to} matching ${subject} within ${timeoutMs} ms`);
  },
  /** The first http(s) link of a message's text part. */
  linkIn(mail: CapturedMail, contains = "http") {
    const links = mail.text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
    const link = links.find((l) => l.includes(contains));
    if (!link) throw new Error(`No link containing "${contains}" in: ${mail.text}`);
    return link;
  },
  async webhookCalls(): Promise<WebhookCall[]> {
    return (await (await fetch(`${SINK_URL}/webhook/calls`)).json()) as WebhookCall[];
  },
  async setWebhook(up: boolean) {
    await fetch(`${SINK_URL}/webhook/${up ? "up" : "down"}`, { method: "POST" });
  },
};

let pool: pg.Pool | undefined;
let database: Database | undefined;

/** Direct access to the end-to-end server's database, for arranging data and checking it. */
export function e2eDb(): Database {
  pool ??= new pg.Pool({ connectionString: e2eDatabaseUrl(), max: 4 });
  database ??= drizzle(pool, { schema, casing: "snake_case" });
  return database;
}

export type TestAccount = {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
};

/** A verified customer with a home, made directly in the database. */
export async function createCustomer(
  options: { firstName?: string; lastName?: string; home?: NewHome | false; phone?: string } = {},
): Promise<TestAccount & { homeId?: string }> {
  const account = await createUser(e2eDb(), {
    email: uniqueEmail("customer"),
    password: PASSWORD,
    firstName: options.firstName ?? "Casey",
    lastName: options.lastName ?? "Member",
    phone: options.phone ?? null,
  });
  let homeId: string | undefined;
  if (options.home !== false)
    homeId = (await createHome(e2eDb(), account.id, options.home ?? {})).id;
  return { ...account, homeId };
}

/** A verified employee, made directly in the database. */
export async function createEmployee(
  options: { firstName?: string; lastName?: string } = {},
): Promise<TestAccount> {
  return createUser(e2eDb(), {
    email: uniqueEmail("staff"),
    password: PASSWORD,
    firstName: options.firstName ?? "Jordan",
    lastName: options.lastName ?? "Staff",
    isEmployee: true,
  });
}

/** Signs in through the auth API; the session cookie lands in the page's browser context. */
export async function signIn(page: Page, account: { email: string; password: string }) {
  const response = await page.request.post("/api/auth/sign-in/email", {
    data: { email: account.email, password: account.password },
    headers: { origin: BASE_URL },
  });
  expect(
    response.ok(),
    `sign-in of ${account.email}: ${response.status()} ${await response.text()}`,
  ).toBeTruthy();
}

/** Runs axe on the page and fails on any violation (WCAG 2.1 A/AA and best practices). */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  const summary = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 5)
        .join("\n  ")}`,
  );
  expect(summary, summary.join("\n")).toEqual([]);
}

export const test = base.extend<{ consoleErrors: string[] }>({
  extraHTTPHeaders: async ({}, use) => {
    await use({ "x-forwarded-for": fakeIp() });
  },
  /** Console errors and CSP violations seen during the test (checked by tests that care). */
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await use(errors);
  },
});
