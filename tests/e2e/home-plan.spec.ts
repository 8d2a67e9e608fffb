import { homeAppliances, homePlanTasks } from "~/db/schema";
import { businessToday, plainDate } from "~/lib/business-calendar";
import { createAppointment, createMembership } from "../../server/seed/factories";
import { labelPhoto } from "../../server/seed/label-image";
import { uniqueWord } from "./employee-support";
import {
  createCustomer,
  createEmployee,
  e2eDb,
  expect,
  expectNoAxeViolations,
  signIn,
  test,
} from "./fixtures";

/*
 * The home the membership cares for (ADR 087), on a phone: a member adds her water heater from
 * a photo of its rating plate (read on our server, checked, saved), and books the plan's task
 * due this month like any task.
 */
test("a member adds a water heater from a label photo, confirms the values, and books the plan's due task @phone-only", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const handyman = await createEmployee({ firstName: "Devon", lastName: uniqueWord("Handy") });
  const member = await createCustomer({ lastName: uniqueWord("Member") });
  const today = businessToday();
  await createMembership(e2eDb(), member.id, {
    plan: "complete",
    billing: "annual",
    startDate: today,
  });
  const home = { id: member.homeId!, customerId: member.id };
  await createAppointment(e2eDb(), home, {
    scheduledDate: "2026-01-06",
    startTime: "09:00",
    endTime: "10:45",
    assignedEmployeeId: handyman.id,
    tasks: ["First look around"],
  });
  const flush = "Flush the water heater and test its relief valve";
  // The office's plan: this task is due this month, whatever month the test runs in.
  const pump = "Test the sump pump";
  await e2eDb()
    .insert(homePlanTasks)
    .values([
      {
        homeId: home.id,
        title: flush,
        months: [Number(today.slice(5, 7))],
        estimatedMinutes: 60,
      },
      // Done today: not due again until next year, so the booking does not offer it.
      {
        homeId: home.id,
        title: pump,
        months: [Number(today.slice(5, 7))],
        estimatedMinutes: 15,
        lastDoneOn: today,
      },
    ]);
  await signIn(page, member);

  await page.goto("/dashboard?tab=home");
  // 'My Home', "Home" on a phone beside the other short tab names.
  await expect(page.getByRole("tab", { name: "Home", exact: true })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await expect(page.getByRole("heading", { name: "Appliances and systems" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Maintenance plan" })).toBeVisible();
  await expect(page.getByTestId("plan-task").filter({ hasText: flush })).toContainText(
    "Due this month",
  );
  // The day it was last done as people read it, never the raw YYYY-MM-DD.
  const pumpTask = page.getByTestId("plan-task").filter({ hasText: pump });
  await expect(pumpTask).toContainText(plainDate(today));
  await expect(pumpTask).not.toContainText(today);
  await page.getByText("Add appliance", { exact: true }).click();
  const photo = await labelPhoto({
    brand: "RHEEM",
    model: "XE50T10HD50U1",
    serial: "Q051912345",
    extra: ["50 GAL  240V  4500W"],
  });
  await page
    .getByLabel("Label photo")
    .setInputFiles({ name: "label.jpg", mimeType: "image/jpeg", buffer: photo });
  await page.getByRole("button", { name: "Read the label" }).click();
  await expect(page.getByText("Read from the label: check before saving")).toBeVisible({
    timeout: 90_000,
  });
  await expect(page.getByLabel("Brand")).toHaveValue("Rheem");
  await expect(page.getByLabel("Model")).toHaveValue("XE50T10HD50U1");
  await expect(page.getByLabel("Serial number")).toHaveValue("Q051912345");
  await expect(page.getByLabel("Installed")).toHaveValue("2019");
  await expectNoAxeViolations(page);
  // She checks them, adds where it is, and saves.
  await page.getByLabel("Location in the home").fill("Garage");
  await page.getByRole("button", { name: "Save appliance" }).click();
  const appliance = page.getByRole("listitem").filter({ hasText: "XE50T10HD50U1" });
  await expect(appliance).toContainText("Rheem");
  await expect(appliance).toContainText("2019 (estimate)");
  await expect(
    appliance.getByRole("img", { name: "Label photo of the water heater" }),
  ).toBeVisible();

  // The plan's task due this month is on her list and in the booking.
  await page.goto("/dashboard");
  await expect(page.getByRole("article").filter({ hasText: flush })).toContainText(
    "From your maintenance plan",
  );
  await page.goto("/dashboard?tab=schedule");
  await page.getByRole("link", { name: "Book a Visit" }).click();
  await page.getByRole("radio", { name: "1 h 45 min" }).check();
  await page.getByRole("button", { name: "Next" }).click();
  await page
    .getByRole("group", { name: "Days with a free time" })
    .getByRole("radio")
    .first()
    .check();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("group", { name: "Start times" }).getByRole("radio").first().check();
  await page.getByRole("button", { name: "Next" }).click();
  const task = page.getByRole("checkbox", { name: flush });
  await expect(page.getByText("From your maintenance plan")).toBeVisible();
  await task.check();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Uses 1 h 45 min")).toBeVisible();
  await page.getByRole("button", { name: "Confirm Visit" }).click();
  await expect(page.getByText("Your visit is booked!")).toBeVisible();
});

/*
 * ADR 104: an appliance's 'Edit' and 'Add appliance' open their form by a link, the page
 * rendering the open form only; what she typed stays in place with the message when refused;
 * the same links work without JavaScript.
 */
test("a member edits and adds an appliance, keeping what she typed when refused, with and without JavaScript", async ({
  page,
  browser,
}) => {
  const member = await createCustomer({ lastName: uniqueWord("Member") });
  await createMembership(e2eDb(), member.id, {
    plan: "complete",
    billing: "annual",
    startDate: businessToday(),
  });
  await e2eDb()
    .insert(homeAppliances)
    .values({ homeId: member.homeId!, type: "furnace", brand: "Lennox", location: "Attic" });
  await signIn(page, member);
  await page.goto("/dashboard?tab=home");
  const furnace = page.getByRole("listitem").filter({ hasText: "Lennox" });
  await expect(furnace.getByRole("heading", { name: "Furnace" })).toBeVisible();
  // Closed forms are not on the page.
  await expect(page.getByRole("button", { name: "Save appliance" })).toHaveCount(0);
  const edit = furnace.getByRole("link", { name: "Edit Furnace" });
  await expect(edit).toHaveAttribute("aria-expanded", "false");
  await edit.click();
  await expect(edit).toHaveAttribute("aria-expanded", "true");
  await expect(furnace.getByLabel("Brand")).toHaveValue("Lennox");
  await expectNoAxeViolations(page);

  await furnace.getByLabel("Model").fill("EL296V");
  await furnace.getByLabel("Installed").fill("last spring");
  await furnace.getByRole("button", { name: "Save appliance" }).click();
  await expect(furnace.getByText("Installed: please give a year (2019) or a date.")).toBeVisible();
  await expect(furnace.getByRole("alert")).toHaveText("Please check the form.");
  await expect(furnace.getByLabel("Model")).toHaveValue("EL296V");
  await expect(furnace.getByLabel("Installed")).toHaveValue("last spring");
  await furnace.getByLabel("Installed").fill("2018");
  await furnace.getByRole("button", { name: "Save appliance" }).click();
  await expect(furnace.getByRole("status")).toHaveText("Appliance saved.");
  await expect(furnace.locator("dl")).toContainText("EL296V");
  await edit.click();
  await expect(edit).toHaveAttribute("aria-expanded", "false");
  await expect(furnace.getByLabel("Model")).toHaveCount(0);

  // 'Add appliance': refused, then saved; the form is emptied once saved.
  const add = page.getByRole("link", { name: "Add appliance" });
  await add.click();
  const form = page.locator("form").filter({ has: page.getByLabel("Notes") });
  await form.getByLabel("Type").selectOption({ label: "Dishwasher" });
  await form.getByLabel("Brand").fill("Bosch");
  await form.getByLabel("Installed").fill("in 2020");
  await form.getByRole("button", { name: "Save appliance" }).click();
  await expect(form.getByText("Installed: please give a year (2019) or a date.")).toBeVisible();
  await expect(form.getByLabel("Brand")).toHaveValue("Bosch");
  await expect(form.getByLabel("Type")).toHaveValue("dishwasher");
  await form.getByLabel("Installed").fill("2020");
  await form.getByRole("button", { name: "Save appliance" }).click();
  await expect(form.getByRole("status")).toHaveText("Appliance saved.");
  await expect(form.getByLabel("Brand")).toHaveValue("");
  await expect(page.getByRole("listitem").filter({ hasText: "Bosch" })).toContainText("Dishwasher");

  // Without JavaScript: the link opens the form, rendered by the server; saving comes back.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const plain = await context.newPage();
  await signIn(plain, member);
  await plain.goto("/dashboard?tab=home");
  const furnaceNoJs = plain.getByRole("listitem").filter({ hasText: "Lennox" });
  await furnaceNoJs.getByRole("link", { name: "Edit Furnace" }).click();
  await expect(plain).toHaveURL(/[?&]item=/);
  await expect(furnaceNoJs.getByLabel("Model")).toHaveValue("EL296V");
  await furnaceNoJs.getByLabel("Location in the home").fill("Basement");
  await furnaceNoJs.getByRole("button", { name: "Save appliance" }).click();
  await expect(plain.getByRole("listitem").filter({ hasText: "Lennox" })).toContainText("Basement");
  await context.close();
});
