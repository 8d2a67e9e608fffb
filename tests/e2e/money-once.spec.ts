import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "~/db/schema";
import type { Database } from "~/db/client.server";
import { createHome, createUser } from "../../server/seed/factories";
import {
  createDatabase,
  startServer,
  TEST_AUTH_SECRET,
  type ServerProcess,
} from "../support/processes";
import { expect, expectNoAxeViolations, PASSWORD, test, uniqueEmail } from "./fixtures";

/*
 * Issue 39, item 1, as the office meets it in manual payments mode (no card processor, the
 * default: this test runs its own server without Stripe settings, the shared one has them):
 * 'Record first payment and start' double-clicked records one payment, and the cancel that
 * follows owes back at most what was paid. The form carries its key (ADR 048, 079): the second
 * post of the double click reaches the server and changes nothing.
 */

let database: Awaited<ReturnType<typeof createDatabase>>;
let server: ServerProcess;
let pool: pg.Pool;
let db: Database;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await createDatabase();
  server = await startServer({ DATABASE_URL: database.url, AUTH_SECRET: TEST_AUTH_SECRET });
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  db = drizzle(pool, { schema, casing: "snake_case" }) as unknown as Database;
});

test.afterAll(async () => {
  await server?.stop();
  await pool?.end();
  await database?.drop();
});

test("a double-clicked 'Record first payment and start' records one payment; the refund is at most what was paid", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const staff = await createUser(db, {
    email: uniqueEmail("staff"),
    password: PASSWORD,
    firstName: "Jordan",
    lastName: "Staff",
    isEmployee: true,
  });
  const customer = await createUser(db, {
    email: uniqueEmail("customer"),
    password: PASSWORD,
    firstName: "Rosa",
    lastName: "Once",
  });
  await createHome(db, customer.id);
  const signedIn = await page.request.post(`${server.origin}/api/auth/sign-in/email`, {
    data: { email: staff.email, password: PASSWORD },
    headers: { origin: server.origin },
  });
  expect(signedIn.ok()).toBeTruthy();

  await page.goto(`${server.origin}/employee/customers/${customer.id}/membership?offer=new`);
  const offerForm = page.locator("form").filter({ has: page.locator("#offer-plan") });
  await offerForm.getByLabel("Plan").selectOption({ label: "Essential Home Care ($175/month)" });
  await offerForm.getByLabel("Billing").selectOption("monthly");
  await offerForm.getByRole("button", { name: "Send membership offer" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Membership offer sent." }),
  ).toBeVisible();
  await expect(page.getByLabel("First payment (USD)")).toHaveValue("175.00");
  await page.getByLabel("Paid by").selectOption("check");
  await page.getByLabel("Reference (optional)").fill("Check 1042");

  const form = page
    .locator("form")
    .filter({ has: page.getByRole("button", { name: "Record first payment and start" }) });
  const sent = {
    intent: "offer-payment",
    key: await form.locator('input[name="key"]').inputValue(),
    amount: "175.00",
    method: "check",
    reference: "Check 1042",
  };
  const posts: Promise<unknown>[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.response());
  });
  await form.getByRole("button", { name: "Record first payment and start" }).dblclick();
  await expect(page.getByTestId("hours-meter")).toBeVisible();
  await expect(
    page.getByRole("status").filter({
      hasText:
        /^(First payment recorded: the membership started\.|Already done: this was sent twice and applied once\.)$/,
    }),
  ).toBeVisible();
  await Promise.all(posts);
  expect(posts.length).toBeGreaterThanOrEqual(1);
  // The same form arriving again (the browser's retry of a post whose answer was lost, or a
  // second click the page did not absorb): answered as applied, nothing recorded.
  const again = await page.request.post(page.url(), {
    form: sent,
    headers: { origin: server.origin, accept: "text/html" },
  });
  expect(again.status()).toBe(200);
  expect(await again.text()).toContain("Already done: this was sent twice and applied once.");
  await page.reload();

  const statement = page.getByRole("region", { name: "Statement" });
  const payments = statement.getByRole("row").filter({ hasText: "(Check 1042)" });
  await expect(payments).toHaveCount(1);
  await expect(payments).toContainText("-$175.00");
  await expect(page.getByTestId("balance")).toHaveText("$0.00");
  await expectNoAxeViolations(page);

  // The cancel, within the guarantee: the month's charge comes back, never more than was paid.
  await page.getByRole("link", { name: "Cancel membership" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Confirm cancellation" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Membership canceled." })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Refunds to pay" })).toBeVisible();
  const owed = (await page.getByText(/ owed to Rosa Once$/).allTextContents()).map((line) =>
    Number(line.replace(/ owed.*$/, "").replace(/[^0-9.]/g, "")),
  );
  expect(owed).toEqual([175]);
  await expect(payments).toHaveCount(1);
});
