import type { Page } from "@playwright/test";
import { SINK_URL } from "../support/ports";
import { createEmployee, expect, expectNoAxeViolations, signIn, test } from "./fixtures";
import { businessDate, uniqueCustomer } from "./employee-support";

/*
 * Cards through Stripe, end to end against the sink's stand-in of Stripe's API: staff send an
 * offer; the member's 'Start membership' lands on Checkout (the stand-in's page); Stripe's
 * signed webhook (not the browser coming back) starts the membership with its first charge and
 * payment; a declined card makes it 'Past due'; a cancel sends the dialog's refund to the
 * stand-in's Refunds endpoint once.
 */

type SignedEvent = { id: string; body: string; signature: string };

async function sendWebhook(page: Page, event: SignedEvent) {
  const response = await page.request.post("/webhooks/stripe", {
    headers: { "content-type": "application/json", "stripe-signature": event.signature },
    data: event.body,
  });
  expect(response.status()).toBe(200);
}

test("offer, Checkout, webhook: active with its charge and payment; 'Past due'; a refund to the card once", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const customer = await uniqueCustomer();
  const staffAccount = await createEmployee();
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, staffAccount);
  await staff.goto(`/employee/customers/${customer.id}/membership`);
  await staff.getByRole("link", { name: "Send membership offer" }).click();
  const offerForm = staff.locator("form").filter({ has: staff.locator("#offer-plan") });
  await offerForm.getByLabel("Plan").selectOption({ label: "Complete Home Care ($295/month)" });
  await offerForm.getByLabel("Billing").selectOption("monthly");
  await offerForm.getByLabel("Start date").fill(businessDate(0));
  await offerForm.getByRole("button", { name: "Send membership offer" }).click();
  await expect(
    staff.getByRole("status").filter({ hasText: "Membership offer sent." }),
  ).toBeVisible();

  await signIn(page, customer);
  await page.goto("/dashboard?tab=membership");
  await expect(page.getByRole("heading", { name: "Your membership offer" })).toBeVisible();
  await expect(page.getByText("$295.00 a month")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Start membership" }).click();
  await expect(page).toHaveURL(/\/pay\/cs_test_/);
  const sessionId = new URL(page.url()).pathname.split("/").pop()!;

  // Coming back from Checkout proves nothing: still an offer until Stripe's webhook.
  await page.goto("/dashboard?tab=membership&checkout=done");
  await expect(page.getByText("your membership starts as soon as Stripe confirms")).toBeVisible();
  await expect(page.getByRole("button", { name: "Start membership" })).toBeVisible();

  const completed = (await (
    await page.request.post(`${SINK_URL}/stripe/complete?session=${sessionId}`)
  ).json()) as { event: SignedEvent; subscriptionId: string };
  await sendWebhook(page, completed.event);
  await sendWebhook(page, completed.event); // Stripe's replay: applied once

  await expect(async () => {
    await page.goto("/dashboard?tab=membership");
    await expect(page.getByRole("button", { name: "Manage card" })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 20_000 });
  await staff.goto(`/employee/customers/${customer.id}/membership`);
  await expect(staff.getByText("Card payment for").first()).toBeVisible();
  await expect(staff.getByText("Complete Home Care, monthly:").first()).toBeVisible();

  // A declined card: 'Past due', with 'Update card'.
  const declined = (await (
    await page.request.post(
      `${SINK_URL}/stripe/decline?subscription=${completed.subscriptionId}&amount=29500`,
    )
  ).json()) as { event: SignedEvent };
  await sendWebhook(page, declined.event);
  await expect(async () => {
    await page.goto("/dashboard?tab=membership");
    await expect(page.getByText("Past due: your card payment did not go through")).toBeVisible({
      timeout: 500,
    });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole("button", { name: "Update card" })).toBeVisible();

  // Cancel: the dialog's refund reaches Stripe's Refunds endpoint once.
  await page.getByRole("link", { name: "Cancel membership" }).click();
  const dialog = page.getByRole("alertdialog");
  const shown = (await dialog.getByTestId("cancel-settlement-result").textContent())!;
  expect(shown).toMatch(/^You receive: \$\d/);
  const dialogCents = Math.round(Number(shown.replace(/[^0-9.]/g, "")) * 100);
  await dialog.getByRole("button", { name: "Confirm cancellation" }).click();
  await expect(page.getByText("Your membership is canceled.")).toBeVisible();
  await expect(async () => {
    const { refunds, calls } = (await (
      await page.request.get(`${SINK_URL}/stripe/refunds`)
    ).json()) as {
      refunds: { amount: number; payment_intent: string }[];
      calls: { method: string; path: string; idempotencyKey?: string }[];
    };
    const ours = refunds.filter((r) => r.amount === dialogCents);
    expect(ours).toHaveLength(1);
    const keys = calls.filter((c) => c.path === "/v1/refunds").map((c) => c.idempotencyKey);
    expect(new Set(keys).size).toBe(keys.length);
  }).toPass({ timeout: 20_000 });
  await staffContext.close();
});
