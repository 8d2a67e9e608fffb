import { and, eq } from "drizzle-orm";
import { appointments } from "~/db/schema";
import { createUser } from "../../server/seed/factories";
import { completePropertySetup, expectToast, fillSignUp } from "./auth-helpers";
import {
  createCustomer,
  createEmployee,
  e2eDb,
  expect,
  expectNoAxeViolations,
  PASSWORD,
  sink,
  signIn,
  test,
  uniqueEmail,
} from "./fixtures";
import { uniqueWord } from "./employee-support";

/*
 * Issue 29, end to end: a visitor's lead reaches staff's 'Leads' tab as 'New', gets a walk-thru
 * and an invitation, signs up and is linked, and reads 'Member' once staff start the membership
 * (manual payment mode); a signed-in customer books a walk-thru at phone width, shown in the
 * staff week view as a walk-thru.
 */

test("a lead goes from the home form to 'Member'", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("lead");
  const last = uniqueWord("Lead");
  await page.goto("/");
  const form = page.locator("form").filter({ hasText: "Schedule Free Consultation" });
  await form.getByLabel("Name").fill(`Rosa ${last}`);
  await form.getByLabel("Zip Code").fill("30305");
  await form.getByLabel("Email").fill(email);
  await form.getByRole("button", { name: "Schedule Free Consultation" }).click();
  await expectToast(page, "Thank you for your interest!");

  const handymanLast = uniqueWord("Walk");
  await createUser(e2eDb(), {
    email: uniqueEmail("wendy"),
    password: PASSWORD,
    firstName: "Wendy",
    lastName: handymanLast,
    isEmployee: true,
    staffRole: "handyman",
  });
  const staffAccount = await createEmployee({ firstName: "Otis", lastName: uniqueWord("Office") });
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, staffAccount);
  await staff.goto("/employee?tab=leads&lstatus=new");
  const row = staff.locator(`[data-lead="${email}"]`);
  await expect(row).toContainText("Home page");
  await expect(row).toContainText("New");
  await expectNoAxeViolations(staff);
  await row.getByRole("link", { name: `Rosa ${last}` }).click();

  // Handymen only: not the office staff member booking it. The handyman first, then the
  // times when that handyman is free.
  const picker = staff.getByLabel("Handyman", { exact: true });
  await expect(picker.getByRole("option", { name: staffAccount.lastName })).toHaveCount(0);
  await picker.selectOption({ label: `Wendy ${handymanLast}` });
  await staff.getByRole("button", { name: "Show times" }).click();
  // A refused field is marked, with its message (ADR 093).
  const address = staff.getByLabel("Address", { exact: true });
  await address.fill("   ");
  await staff.getByRole("button", { name: "Book walk-thru" }).click();
  await expect(address).toHaveAttribute("aria-invalid", "true");
  await expect(address).toHaveAccessibleDescription("Address is required");
  await address.fill("12 Elm St NE, Atlanta, GA 30305");
  await staff.getByRole("button", { name: "Book walk-thru" }).click();
  await expect(staff.getByRole("status")).toContainText("Walk-thru booked:");
  await expect(staff.locator("[data-lead-status]").first()).toContainText("Walk-thru booked");
  const booked = await sink.waitForMail(email, /free walk-thru is booked/);
  expect(booked.raw).toContain("text/calendar");

  // 'Cancel walk-thru' asks first, then tells the lead by e-mail.
  await staff.getByRole("button", { name: "Cancel walk-thru" }).click();
  const ask = staff.getByRole("alertdialog", { name: "Cancel this walk-thru?" });
  await expectNoAxeViolations(staff);
  await ask.getByRole("button", { name: "Yes, cancel the walk-thru" }).click();
  await expect(staff.getByRole("status")).toContainText("Walk-thru canceled");
  await expect(staff.locator("[data-walk-thru]").first()).toHaveAttribute(
    "data-walk-thru",
    "canceled",
  );
  const canceled = await sink.waitForMail(email, /free walk-thru on .* is canceled/);
  expect(canceled.raw).toMatch(/method=CANCEL/i);

  await staff.getByRole("button", { name: "Invite to create an account" }).click();
  await expect(staff.getByRole("status")).toContainText(`Invitation sent to ${email}`);
  const invite = await sink.waitForMail(email, /Create your/);

  // The person signs up from the invitation: name and e-mail are filled in.
  const personContext = await browser.newContext();
  const person = await personContext.newPage();
  await person.goto(sink.linkIn(invite, "/auth"));
  await expect(person.getByLabel("Email")).toHaveValue(email);
  await expect(person.getByLabel("First Name")).toHaveValue("Rosa");
  await expect(person.getByLabel("Last Name")).toHaveValue(last);
  await fillSignUp(person, { firstName: "Rosa", lastName: last, email, password: PASSWORD });
  await person.getByRole("button", { name: "Create Account" }).click();
  const confirm = await sink.waitForMail(email, /Confirm your/);
  await person.goto(sink.linkIn(confirm, "verify"));
  await completePropertySetup(person);

  await staff.reload();
  await expect(staff.getByTestId("lead-account")).toContainText("Linked to the customer's account");
  await staff.getByRole("link", { name: "Send membership offer" }).click();
  await expect(staff.getByText("Where they came from")).toBeVisible();
  await staff.getByLabel("First payment (USD)").fill("175");
  await staff.getByRole("button", { name: "Start Membership" }).click();
  await expect(staff.getByText("First payment recorded: the membership started.")).toBeVisible();
  await staff.getByRole("link", { name: `Lead: Rosa ${last}` }).click();
  await expect(staff.locator("[data-lead-status]").first()).toContainText("Member");
  await staff.goto("/employee?tab=leads&lstatus=member");
  await expect(staff.locator(`[data-lead="${email}"]`)).toContainText("Member");
  await Promise.all([staffContext.close(), personContext.close()]);
});

test("a signed-in customer books a walk-thru at phone width; staff see it in the week view", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const customer = await createCustomer({ lastName: uniqueWord("Walker") });
  await signIn(page, customer);
  await page.goto("/dashboard?tab=membership");
  await page.getByRole("link", { name: "Book a free walk-thru" }).click();
  await expect(page).toHaveURL(/\/dashboard\/walk-thru/);
  await expect(page.getByRole("link", { name: "Login" })).toHaveCount(0);
  await page.getByRole("button", { name: "Show times" }).click();
  await expect(page.getByLabel("Name")).not.toHaveValue("");
  await expect(page.getByLabel("Address")).not.toHaveValue("");
  await expectNoAxeViolations(page);
  // A refused field is marked, with its message (ADR 093).
  const name = page.getByLabel("Name");
  const filled = await name.inputValue();
  await name.fill("   ");
  await page.getByRole("button", { name: "Book walk-thru" }).click();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription("Name is required");
  await name.fill(filled);
  await page.getByRole("button", { name: "Book walk-thru" }).click();
  await expect(page.getByRole("status")).toContainText("Your free walk-thru is booked");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);

  const [walk] = await e2eDb()
    .select()
    .from(appointments)
    .where(and(eq(appointments.customerId, customer.id), eq(appointments.kind, "walk_thru")));
  expect(walk.endTime).not.toBe(walk.startTime);
  const staffAccount = await createEmployee({ lastName: uniqueWord("Viewer") });
  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, staffAccount);
  await staff.goto(
    `/employee/schedule?employee=${walk.assignedEmployeeId}&week=${walk.scheduledDate}`,
  );
  await expect(
    staff.locator(`[data-kind="walk_thru"]`).filter({ hasText: "Walk-thru" }).first(),
  ).toBeVisible();
  await staffContext.close();
});
