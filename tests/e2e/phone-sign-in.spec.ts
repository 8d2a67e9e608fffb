import { eq } from "drizzle-orm";
import { profiles, rateLimits } from "~/db/schema";
import { chooseFromProfileMenu } from "./auth-helpers";
import { uniqueWord } from "./employee-support";
import {
  createCustomer,
  e2eDb,
  expect,
  expectNoAxeViolations,
  sink,
  signIn,
  test,
} from "./fixtures";

/*
 * Sign-in with a text code (ADR 086), at phone width: a member verifies her mobile in Profile
 * Settings with a texted code, then signs in with a code read from the text (the sink's stand-in
 * of Twilio); without JavaScript, the same two steps work as plain forms.
 */

function freshMobile() {
  const digits = String(Math.floor(1000 + Math.random() * 9000));
  return { e164: `+1404555${digits}`, typed: `(404) 555-${digits}` };
}

/** The code of the newest text to `to`, once it has arrived. */
async function codeTextedTo(to: string, count: number) {
  await expect.poll(async () => (await sink.texts(to)).length, { timeout: 15_000 }).toBe(count);
  const texts = await sink.texts(to);
  return texts[texts.length - 1].body.match(/(\d{6}) is your/)![1];
}

test("Maria verifies her mobile, then signs in with a text code @phone-only", async ({ page }) => {
  const mobile = freshMobile();
  const maria = await createCustomer({
    firstName: "Maria",
    lastName: uniqueWord("Alvarez"),
    phone: mobile.typed,
  });

  // A number not yet verified does not sign in: the same answer, and no text.
  const other = freshMobile();
  await createCustomer({ lastName: uniqueWord("Unverified"), phone: other.typed });
  await page.goto("/auth");
  await page.getByRole("link", { name: "Sign in with a text code" }).click();
  await page.getByLabel("Mobile number").fill(other.typed);
  await page.getByRole("button", { name: "Text me a code" }).click();
  await expect(
    page.getByText("If this number belongs to an account, we sent a code.").first(),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Enter your code" })).toBeVisible();
  expect(await sink.texts(other.e164)).toHaveLength(0);

  // Profile Settings, Notifications: 'Verify'.
  await signIn(page, maria);
  await page.goto("/dashboard");
  await chooseFromProfileMenu(page, "Profile");
  await page.getByRole("button", { name: "Verify", exact: true }).click();
  await expect(page.getByText(`We texted a code to ${mobile.typed}`)).toBeVisible();
  await page.getByLabel("Code from the text").fill(await codeTextedTo(mobile.e164, 1));
  await page.getByRole("button", { name: "Verify code" }).click();
  await expect(
    page.getByText("Your mobile number is verified: you can sign in with a text code.").first(),
  ).toBeVisible();
  await page.keyboard.press("Escape");
  await chooseFromProfileMenu(page, "Sign Out");
  await expect(page).toHaveURL(/\/auth/);

  // A minute later (one text per number per minute: its counter is moved on here, not waited
  // for), she signs in with a text code; a double tap on 'Text me a code' texts once.
  await e2eDb()
    .delete(rateLimits)
    .where(eq(rateLimits.key, `text-code:phone-minute:${mobile.e164}`));
  await page.goto("/auth?mode=text-code");
  await expect(page.getByText("What a text code protects against")).toBeVisible();
  await page.getByLabel("Mobile number").fill(mobile.typed);
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Text me a code" }).dblclick();
  await expect(page.getByRole("heading", { name: "Enter your code" })).toBeVisible();
  const code = await codeTextedTo(mobile.e164, 2);
  await page.getByLabel("Code from the text").fill(code);
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.waitForTimeout(1500);
  expect(await sink.texts(mobile.e164)).toHaveLength(2);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a verified member signs in with a text code through plain forms @phone-only", async ({
    page,
  }) => {
    const mobile = freshMobile();
    const member = await createCustomer({ lastName: uniqueWord("Plain"), phone: mobile.typed });
    await e2eDb()
      .update(profiles)
      .set({ mobileVerifiedAt: new Date() })
      .where(eq(profiles.userId, member.id));
    await page.goto("/auth");
    await page.getByRole("link", { name: "Sign in with a text code" }).click();
    await page.getByLabel("Mobile number").fill(mobile.typed);
    await page.getByRole("button", { name: "Text me a code" }).click();
    await expect(
      page.getByText("If this number belongs to an account, we sent a code."),
    ).toBeVisible();
    await page.getByLabel("Code from the text").fill("12345");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert")).toContainText(
      "Please enter the 6-digit code from the text",
    );
    await page.getByLabel("Code from the text").fill(await codeTextedTo(mobile.e164, 1));
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
