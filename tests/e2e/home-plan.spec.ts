import { homePlanTasks } from "~/db/schema";
import { businessToday } from "~/lib/business-calendar";
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
  await e2eDb()
    .insert(homePlanTasks)
    .values({
      homeId: home.id,
      title: flush,
      months: [Number(today.slice(5, 7))],
      estimatedMinutes: 60,
    });
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
