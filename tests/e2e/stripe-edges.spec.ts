import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { membershipOffers, memberships, outbox } from "~/db/schema";
import { SINK_URL } from "../support/ports";
import {
  createEmployee,
  e2eDb,
  expect,
  expectNoAxeViolations,
  signIn,
  test,
  uniqueEmail,
} from "./fixtures";
import { chooseFromProfileMenu } from "./auth-helpers";
import { businessDate, uniqueCustomer } from "./employee-support";

/*
 * Issue 39 in Chromium against the sink's stand-in of Stripe: 'Start membership' pressed in two
 * tabs opens one Checkout Session; an annual member's Plan tab offers 'Switch to monthly' and
 * 'Cancel renewal' (one tap each, no JavaScript needed); office staff see what the outbox gave
 * up on under 'Failed deliveries' and retry it.
 */

type SignedEvent = { id: string; body: string; signature: string };

async function sendWebhook(page: Page, event: SignedEvent) {
  const response = await page.request.post("/webhooks/stripe", {
    headers: { "content-type": "application/json", "stripe-signature": event.signature },
    data: event.body,
  });
  expect(response.status()).toBe(200);
}

test("'Start membership' in two tabs opens one Checkout; the annual renewal's choices on the Plan tab @phone", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const customer = await uniqueCustomer();
  await e2eDb()
    .insert(membershipOffers)
    .values({
      customerId: customer.id,
      plan: "complete",
      billing: "annual",
      startDate: businessDate(0),
    });
  await signIn(page, customer);
  const other = await page.context().newPage();
  for (const tab of [page, other]) await tab.goto("/dashboard?tab=membership");
  await page.getByRole("button", { name: "Start membership" }).click();
  await other.getByRole("button", { name: "Start membership" }).click();
  await expect(page).toHaveURL(/\/pay\/cs_test_/);
  await expect(other).toHaveURL(/\/pay\/cs_test_/);
  expect(other.url()).toBe(page.url());
  await other.close();
  const sessionId = new URL(page.url()).pathname.split("/").pop()!;

  const completed = (await (
    await page.request.post(`${SINK_URL}/stripe/complete?session=${sessionId}`)
  ).json()) as { event: SignedEvent };
  await sendWebhook(page, completed.event);
  await expect(async () => {
    await page.goto("/dashboard?tab=membership");
    await expect(page.getByRole("heading", { name: "Renewal" })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 20_000 });
  const renewal = page.locator("#renewal");
  await expect(renewal).toContainText("$3,540.00");
  await expect(renewal).toContainText("$295.00 a month");
  await expectNoAxeViolations(page);

  await renewal.getByRole("button", { name: "Switch to monthly" }).click();
  await expect(
    page
      .getByRole("status")
      .filter({ hasText: "from your renewal date your membership is billed monthly" }),
  ).toBeVisible();
  await expect(page.locator("#renewal")).toContainText("is billed $295.00 a month");
  await page.locator("#renewal").getByRole("button", { name: "Cancel renewal" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "your membership ends on its renewal date" }),
  ).toBeVisible();
  const [m] = await e2eDb()
    .select()
    .from(memberships)
    .where(eq(memberships.customerId, customer.id));
  expect(m.renewalChoice).toBe("cancel");
  await page.locator("#renewal").getByRole("button", { name: "Keep annual renewal" }).click();
  await expect(page.locator("#renewal")).toContainText("renews on");
});

test("'Failed deliveries': what the outbox gave up on is listed for the office and retried @phone", async ({
  page,
}) => {
  const to = uniqueEmail("bounced");
  const subject = `Your visit is confirmed ${Date.now()}`;
  const [item] = await e2eDb()
    .insert(outbox)
    .values({
      kind: "email",
      payload: { to, subject, text: "Hello", html: "<p>Hello</p>" },
      attempts: 20,
      lastError: "554 mailbox unavailable",
      failedAt: new Date(),
    })
    .returning();
  const staff = await createEmployee();
  await signIn(page, staff);
  await page.goto("/employee");
  await chooseFromProfileMenu(page, "Profile");
  await page
    .getByRole("dialog", { name: "Profile Settings" })
    .getByRole("link", { name: "Failed deliveries" })
    .click();
  await expect(page.getByRole("heading", { name: "Failed deliveries", level: 1 })).toBeVisible();
  const entry = page.getByRole("listitem").filter({ hasText: subject });
  await expect(entry).toContainText(`E-mail to ${to}`);
  await expect(entry).toContainText("after 20 tries");
  await expect(entry).toContainText("554 mailbox unavailable");
  await expectNoAxeViolations(page);
  await entry.getByRole("button", { name: /^Retry/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "Retrying now" })).toBeVisible();
  // The worker sends it (the sink's mail server takes it): it leaves the list.
  await expect(async () => {
    const [row] = await e2eDb().select().from(outbox).where(eq(outbox.id, item.id));
    expect(row.failedAt).toBeNull();
    expect(row.deliveredAt).not.toBeNull();
  }).toPass({ timeout: 20_000 });
  await page.goto("/employee/failed-deliveries");
  await expect(page.getByText(subject)).toHaveCount(0);
});
