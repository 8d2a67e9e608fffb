import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { user } from "~/db/schema";
import { PASSWORD, e2eDb, expect, sink, test, uniqueEmail } from "./fixtures";
import { expectToast, fillSignUp, signInThroughForm } from "./auth-helpers";

/*
 * Signing in before confirming the e-mail says what to do and offers 'Resend confirmation
 * e-mail', rate-limited like the other account e-mails; a wrong password reveals nothing.
 */

async function signUp(page: Page, email: string) {
  await page.goto("/auth?mode=sign-up");
  await fillSignUp(page, { firstName: "Rae", lastName: "Sent", email, password: PASSWORD });
  await page.getByRole("button", { name: "Create Account" }).click();
  await sink.waitForMail(email, /Confirm your/);
}

test("an unconfirmed sign-in says what to do; 'Resend confirmation e-mail' sends a working link", async ({
  page,
}) => {
  const email = uniqueEmail("resend");
  await signUp(page, email);
  const resend = page.getByRole("button", { name: "Resend confirmation e-mail" });

  // A wrong password says nothing about the account.
  await signInThroughForm(page, { email, password: "Wrong-Pass-1!" });
  await expectToast(page, "Error", "Invalid email or password");
  await expect(resend).toHaveCount(0);

  await signInThroughForm(page, { email, password: PASSWORD });
  await expectToast(
    page,
    "Please confirm your e-mail address",
    "We have just sent you a new link: open it, then sign in.",
  );
  await expect(page).toHaveURL(/\/auth/);
  await expect.poll(async () => (await sink.mails(email)).length).toBe(2);

  await resend.click();
  await expectToast(page, "Confirmation e-mail sent", "a new link is on its way");
  await expect.poll(async () => (await sink.mails(email)).length).toBe(3);
  const mails = await sink.mails(email);
  await page.goto(sink.linkIn(mails.at(-1)!, "/api/auth/verify-email"));
  await expect(
    page.getByRole("dialog", { name: "Welcome! Let's set up your property" }),
  ).toBeVisible();
  const [row] = await e2eDb()
    .select({ verified: user.emailVerified })
    .from(user)
    .where(eq(user.email, email));
  expect(row.verified).toBe(true);
});

test("'Resend confirmation e-mail' is rate-limited like the other e-mails", async ({ page }) => {
  const email = uniqueEmail("resend-limit");
  await signUp(page, email);
  await signInThroughForm(page, { email, password: PASSWORD });
  const resend = page.getByRole("button", { name: "Resend confirmation e-mail" });
  for (let i = 0; i < 5; i++) {
    await resend.click();
    await expectToast(page, "Confirmation e-mail sent");
    await page.locator("[data-sonner-toast] button[aria-label='Close toast']").first().click();
  }
  await resend.click();
  await expectToast(page, "Too many attempts", "before trying again");
  // Sign-up, the sign-in's own new link and five on request: the sixth request sent nothing.
  await expect.poll(async () => (await sink.mails(email)).length).toBe(7);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the notice and the button are in the page, and the button works", async ({ page }) => {
    const email = uniqueEmail("resend-nojs");
    await page.goto("/auth?mode=sign-up");
    await fillSignUp(page, { firstName: "Nils", lastName: "Script", email, password: PASSWORD });
    await page.getByRole("button", { name: "Create Account" }).click();
    await sink.waitForMail(email, /Confirm your/);
    await signInThroughForm(page, { email, password: PASSWORD });
    const alert = page.getByRole("alert");
    await expect(alert).toContainText("Please confirm your e-mail address");
    await page.getByRole("button", { name: "Resend confirmation e-mail" }).click();
    await expect(page.getByText("Confirmation e-mail sent")).toBeVisible();
    await expect.poll(async () => (await sink.mails(email)).length).toBe(3);
  });
});
