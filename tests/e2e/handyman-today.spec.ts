import { sql } from "drizzle-orm";
import sharp from "sharp";
import {
  createMembership,
  createMemberVisit,
  createServiceRequest,
  createUser,
} from "../../server/seed/factories";
import { addDays, businessToday } from "~/lib/business-calendar";
import { chooseFromProfileMenu, signInThroughForm } from "./auth-helpers";
import {
  createCustomer,
  createEmployee,
  e2eDb,
  expect,
  expectNoAxeViolations,
  PASSWORD,
  signIn,
  test,
  uniqueEmail,
} from "./fixtures";

/*
 * The handyman's day on a phone (issue 26 items 8-10): Dana signs in and lands on 'Today', is
 * on the way, starts, adds an after photo and finishes with one task done and one not; the
 * member then finds the done task under Done, the other back on the list, the hours back in the
 * bank, and no way to cancel the completed visit.
 */

test.use({ viewport: { width: 390, height: 844 } });

test("a handyman works a visit from 'Today' and the member sees the result @phone-only", async ({
  page,
  browser,
}) => {
  const today = businessToday();
  const office = await createEmployee();
  const dana = await createUser(e2eDb(), {
    email: uniqueEmail("dana"),
    password: PASSWORD,
    firstName: "Dana",
    lastName: "Whitfield",
    isEmployee: true,
    staffRole: "handyman",
  });
  const member = await createCustomer({
    firstName: "Maria",
    lastName: "Alvarez",
    phone: "(404) 555-0181",
  });
  const home = { id: member.homeId!, customerId: member.id };
  await createMembership(e2eDb(), member.id, {
    plan: "complete",
    billing: "annual",
    startDate: addDays(today, -10),
    staffId: office.id,
    today: addDays(today, -10),
  });
  const gate = await createServiceRequest(e2eDb(), home, {
    title: "Fix the gate",
    priority: "next",
  });
  const shelves = await createServiceRequest(e2eDb(), home, {
    title: "Hang shelves",
    priority: "next",
  });
  const { appointment } = await createMemberVisit(e2eDb(), home, {
    today: addDays(today, -10),
    scheduledDate: today,
    startTime: "09:00",
    endTime: "10:45",
    assignedEmployeeId: dana.id,
    createdBy: office.id,
    tasks: [
      { description: gate.title, requestId: gate.id },
      { description: shelves.title, requestId: shelves.id },
    ],
  });

  // The member's hours before the visit is finished.
  const memberContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const memberPage = await memberContext.newPage();
  await signIn(memberPage, member);
  await memberPage.goto("/dashboard?tab=membership");
  const hoursBefore = await memberPage.getByTestId("hours-meter").textContent();

  // Dana signs in and lands on 'Today'.
  await signInThroughForm(page, dana);
  await expect(page).toHaveURL(/\/employee\/today$/);
  await expect(page.getByRole("heading", { level: 1, name: "Today" })).toBeVisible();
  const visit = page.getByRole("article", { name: /9:00 AM to 10:45 AM: Maria Alvarez/ });
  await expect(visit.getByRole("link", { name: /Call/ })).toHaveAttribute("href", "tel:4045550181");
  await expect(visit.getByRole("link", { name: /Peachtree|Atlanta/ })).toHaveAttribute(
    "href",
    /google\.com\/maps/,
  );
  await expect(page.getByRole("link", { name: "Tomorrow" })).toBeVisible();
  await expect(page.getByRole("link", { name: "This week" })).toBeVisible();
  // Her profile offers her day and her own hours, not the office's week view, closed days or reports.
  await chooseFromProfileMenu(page, "Profile");
  const profile = page.getByRole("dialog", { name: "Profile Settings" });
  const schedules = profile.getByRole("navigation", { name: "Schedules" });
  await expect(schedules.getByRole("link")).toHaveText(["Today", "Working hours and time off"]);
  await expect(profile.getByRole("link", { name: "Reports" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(profile).toBeHidden();
  await expectNoAxeViolations(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);

  const startForm = visit.locator("form", {
    has: page.getByRole("button", { name: "Start visit" }),
  });
  const usedKey = await startForm.locator('input[name="key"]').inputValue();
  await visit.getByRole("button", { name: "On my way" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "The member has been told you are on your way.",
  );
  // The page's data is drawn again after the answer: the form's key is a fresh one.
  await expect(startForm.locator('input[name="key"]')).not.toHaveValue(usedKey);
  // The same 'Start visit' form sent twice (a retry on a poor connection): applied once, and the
  // second post is answered in place with the page, saying so.
  const resent = {
    intent: "start",
    appointmentId: await startForm.locator('input[name="appointmentId"]').inputValue(),
    key: await startForm.locator('input[name="key"]').inputValue(),
  };
  await visit.getByRole("button", { name: "Start visit" }).click();
  await expect(page.getByRole("status")).toHaveText("Visit started.");
  const again = await page.request.post("/employee/today", {
    form: resent,
    headers: { accept: "text/html", origin: new URL(page.url()).origin },
  });
  expect(again.status()).toBe(200);
  expect(await again.text()).toContain("Already done: this was sent twice and applied once.");

  // An after photo on the gate.
  await visit.getByText("Add photo").click();
  await visit.getByLabel("Task").selectOption({ label: "Fix the gate" });
  const jpeg = await sharp({
    create: { width: 64, height: 64, channels: 3, background: { r: 20, g: 120, b: 90 } },
  })
    .jpeg()
    .toBuffer();
  await visit.getByLabel("After").check();
  await visit.getByLabel("Photo", { exact: true }).setInputFiles({
    name: "gate-after.jpg",
    mimeType: "image/jpeg",
    buffer: jpeg,
  });
  await visit.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.getByRole("status")).toHaveText("Photo added.");
  await expect(visit.getByRole("img", { name: "After photo: gate-after.jpg" })).toBeVisible();
  // A before photo of the shelves (any task of the visit takes one); the form may still be open.
  if (!(await visit.getByLabel("Task").isVisible())) await visit.getByText("Add photo").click();
  await visit.getByLabel("Task").selectOption({ label: "Hang shelves" });
  await visit.getByLabel("Before").check();
  await visit.getByLabel("Photo", { exact: true }).setInputFiles({
    name: "shelves-before.jpg",
    mimeType: "image/jpeg",
    buffer: jpeg,
  });
  await visit.getByRole("button", { name: "Upload photo" }).click();
  await expect(page.getByRole("status")).toHaveText("Photo added.");
  await expect(visit.getByRole("img", { name: "Before photo: shelves-before.jpg" })).toBeVisible();

  // A part with its receipt photo: over $100, so it waits for the member, who sees the receipt.
  await visit.getByText("Add part").click();
  await visit.getByLabel("Part", { exact: true }).fill("Gate hinge set");
  // A refused price is marked on its field, with its message (ADR 093); the part is kept.
  await visit.getByLabel(/^Price/).fill("abc");
  await visit.getByRole("button", { name: "Save part" }).click();
  await expect(visit.getByLabel(/^Price/)).toHaveAttribute("aria-invalid", "true");
  await expect(visit.getByLabel(/^Price/)).toHaveAccessibleDescription(
    /^Please enter the cost in dollars/,
  );
  await expect(visit.getByLabel("Part", { exact: true })).toHaveValue("Gate hinge set");
  await visit.getByLabel(/^Price/).fill("125.00");
  await visit.getByLabel("Receipt photo").setInputFiles({
    name: "receipt.jpg",
    mimeType: "image/jpeg",
    buffer: jpeg,
  });
  await visit.getByRole("button", { name: "Save part" }).click();
  await expect(page.getByRole("status")).toHaveText("Part added.");
  // The form is drawn again, empty: a second tap cannot add the same part twice.
  await expect(visit.getByLabel("Part", { exact: true })).toHaveValue("");
  await expect(visit.getByLabel(/^Price/)).toHaveValue("");
  await expect(visit.getByLabel(/^Receipt photo/)).toHaveValue("");
  await expect(visit.getByRole("link", { name: "Receipt" })).toHaveAttribute(
    "href",
    /^\/part-receipts\//,
  );

  // Finish: the time worked is offered from the visit's own clock ('Start visit' a moment
  // ago: 15 minutes), one task done, one not; the time must be confirmed, not taken untouched.
  await visit.getByText("Finish visit").click();
  await expect(visit.getByLabel(/^Time worked/)).toHaveValue("15");
  await expect(visit.getByText(/From 'Start visit' at \d{1,2}:\d{2} [AP]M to now/)).toBeVisible();
  await visit
    .getByRole("group", { name: "Fix the gate" })
    .getByLabel("Done", { exact: true })
    .check();
  await visit.getByRole("group", { name: "Hang shelves" }).getByLabel("Not done").check();
  const confirm = visit.getByLabel("I confirm the time worked");
  await expect(confirm).not.toBeChecked();
  // Unconfirmed, the browser does not send it; a forged post is refused by the server.
  const finishForm = visit.locator("form", {
    has: page.getByRole("button", { name: "Save and finish" }),
  });
  const unconfirmed = await page.request.post("/employee/today", {
    form: {
      intent: "finish",
      appointmentId: appointment.id,
      key: await finishForm.locator('input[name="key"]').inputValue(),
      minutesWorked: "15",
    },
    headers: { accept: "text/html", origin: new URL(page.url()).origin },
  });
  expect(await unconfirmed.text()).toContain("Please confirm the time worked.");
  await visit.getByLabel(/^Time worked/).selectOption("60");
  await confirm.check();
  await visit.getByRole("button", { name: "Save and finish" }).click();
  await expect(page.getByRole("status")).toHaveText("Visit finished.");
  await expect(visit.getByText("Completed", { exact: true })).toBeVisible();
  // What was recorded, read from the database: the time chosen (the bank's entries beside it,
  // should it differ).
  const recorded = await e2eDb().execute(
    sql`select minutes_worked, block_minutes, status from membership_visits where appointment_id = ${appointment.id}`,
  );
  const entries = await e2eDb().execute(
    sql`select kind, minutes, note from membership_minutes_ledger where appointment_id = ${appointment.id} order by created_at`,
  );
  expect(
    (recorded.rows[0] as { minutes_worked: number } | undefined)?.minutes_worked,
    JSON.stringify({ recorded: recorded.rows, entries: entries.rows }),
  ).toBe(60);

  // The member: the gate under Done, the shelves back on the list, the hours back.
  await memberPage.goto("/dashboard?tab=completed");
  await expect(
    memberPage.getByRole("tabpanel").getByRole("article", { name: "Fix the gate" }),
  ).toBeVisible();
  await memberPage.goto("/dashboard?tab=requests");
  const todo = memberPage.getByRole("tabpanel");
  await expect(todo.getByRole("article", { name: "Hang shelves" })).toBeVisible();
  await expect(todo.getByRole("article", { name: "Fix the gate" })).toHaveCount(0);
  await memberPage.goto("/dashboard?tab=membership");
  await expect(memberPage.getByTestId("hours-meter")).not.toHaveText(hoursBefore ?? "");
  const receipt = memberPage.getByRole("img", { name: "Receipt photo: Gate hinge set" });
  await receipt.scrollIntoViewIfNeeded();
  await expect
    .poll(() => receipt.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  // The office sees the receipt on the customer's membership page.
  const officeContext = await browser.newContext();
  const officePage = await officeContext.newPage();
  await signIn(officePage, office);
  await officePage.goto(`/employee/customers/${member.id}/membership`);
  await expect(
    officePage.getByRole("img", { name: "Receipt photo: Gate hinge set" }),
  ).toBeVisible();
  await officeContext.close();
  // The member's completed visit page: each task's outcome, the time worked, photos, parts.
  await memberPage.goto(`/dashboard/visits/${appointment.id}`);
  await expect(memberPage.getByRole("button", { name: /Cancel/ })).toHaveCount(0);
  const report = memberPage.getByRole("region", { name: "What was done" });
  await expect(report.getByTestId("time-worked")).toHaveText("1 h");
  await expect(report.getByText("Fix the gate: Done")).toBeVisible();
  await expect(report.getByText("Hang shelves: Not done (back on your list)")).toBeVisible();
  await expect(report.getByRole("img", { name: "After: gate-after.jpg" })).toBeVisible();
  await expect(report.getByRole("img", { name: "Before: shelves-before.jpg" })).toBeVisible();
  await expect(report.getByText(/Gate hinge set: \$125\.00/)).toBeVisible();
  await expectNoAxeViolations(memberPage);
  await memberContext.close();
});
