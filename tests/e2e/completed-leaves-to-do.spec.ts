import type { Page } from "@playwright/test";
import { createServiceRequest } from "../../server/seed/factories";
import { BASE_URL } from "../support/ports";
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
 * A request the business has completed leaves the customer's Next/Later to-do list and is
 * listed under Completed only; moving the open ones skips it.
 */

function group(page: Page, name: "Next" | "Later") {
  return page.getByRole("region", { name: new RegExp(`^${name} \\(\\d+\\)$`) });
}

test("a request marked complete by staff leaves the to-do list for Completed @phone", async ({
  page,
  browser,
}) => {
  const customer = await createCustomer();
  const home = { id: customer.homeId!, customerId: customer.id };
  const gutters = await createServiceRequest(e2eDb(), home, {
    title: "Clean the gutters",
    priority: "next",
  });
  await createServiceRequest(e2eDb(), home, { title: "Fix the doorbell", priority: "next" });
  await createServiceRequest(e2eDb(), home, { title: "Hang the mirror", priority: "later" });

  await signIn(page, customer);
  await page.goto("/dashboard");
  await expect(group(page, "Next").getByRole("heading", { level: 3 })).toHaveText("Next (2)");

  // Staff finish the gutters and say so in the request's detail.
  const staff = await browser.newContext();
  const staffPage = await staff.newPage();
  await signIn(staffPage, await createEmployee());
  await staffPage.goto(`/employee?request=${gutters.id}`);
  const detail = staffPage.getByRole("dialog");
  await detail.getByLabel("Status").selectOption("complete");
  await expect(staffPage.getByText("Status updated successfully")).toBeVisible();
  await staff.close();

  await page.reload();
  const next = group(page, "Next");
  await expect(next.getByRole("heading", { level: 3 })).toHaveText("Next (1)");
  await expect(next.getByRole("article")).toHaveCount(1);
  await expect(next.getByRole("article", { name: "Fix the doorbell" })).toBeVisible();
  await expect(page.getByRole("article", { name: "Clean the gutters" })).toHaveCount(0);
  // The one open request left in Next is both first and last: nothing to move past.
  await expect(next.getByRole("button", { name: /Move .* up/ })).toBeDisabled();
  await expect(next.getByRole("button", { name: /Move .* down/ })).toBeDisabled();
  await expect(group(page, "Later").getByRole("heading", { level: 3 })).toHaveText("Later (1)");

  // The server agrees: the completed request is no neighbour to move past, and does not move.
  const post = (id: string, intent: string) =>
    page.request.post(`/dashboard/requests/${id}`, {
      form: { intent },
      headers: { origin: BASE_URL, accept: "application/json" },
    });
  const doorbell = await next.getByRole("article").getAttribute("data-request-id");
  expect(doorbell).toBeTruthy();
  expect((await post(doorbell!, "move-up")).status()).toBe(409);
  expect((await post(gutters.id, "move-down")).status()).toBe(404);

  await page.getByRole("tab", { name: /Completed|Done/ }).click();
  const done = page.getByRole("tabpanel");
  await expect(done.getByRole("article", { name: "Clean the gutters" })).toBeVisible();
  await expect(done.getByRole("button", { name: "Edit Clean the gutters" })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("only completed work: the to-do groups say they are empty", async ({ page }) => {
  const customer = await createCustomer();
  const home = { id: customer.homeId!, customerId: customer.id };
  await createServiceRequest(e2eDb(), home, {
    title: "Replace the porch light",
    priority: "later",
    status: "complete",
  });
  await signIn(page, customer);
  await page.goto("/dashboard");
  await expect(group(page, "Next").getByRole("heading", { level: 3 })).toHaveText("Next (0)");
  await expect(group(page, "Later").getByRole("heading", { level: 3 })).toHaveText("Later (0)");
  await expect(page.getByText("No urgent tasks yet")).toBeVisible();
  await expect(page.getByText("No tasks for later yet")).toBeVisible();
  await expect(page.getByRole("article", { name: "Replace the porch light" })).toHaveCount(0);
});
