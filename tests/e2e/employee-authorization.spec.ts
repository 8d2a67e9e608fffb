import { eq } from "drizzle-orm";
import { appointments, serviceRequests } from "~/db/schema";
import { createServiceRequest } from "../../server/seed/factories";
import { BASE_URL } from "../support/ports";
import { createCustomer, createEmployee, e2eDb, expect, signIn, test } from "./fixtures";
import { businessDate, uniqueCustomer } from "./employee-support";

/*
 * Who may use the employee dashboard: employees only. A customer (or a visitor) gets none of its
 * data and none of its actions succeed, through the pages or by posting directly.
 */

test.describe("employee dashboard authorization", () => {
  test("a customer opening /employee is sent to /dashboard and sees no employee data @phone", async ({
    page,
  }) => {
    const other = await uniqueCustomer();
    const secret = await createServiceRequest(
      e2eDb(),
      { id: other.homeId, customerId: other.id },
      { title: "Another customer's private request" },
    );
    await signIn(page, await createCustomer());
    const response = await page.goto("/employee");
    await expect(page).toHaveURL(/\/dashboard/);
    expect(response?.url()).toContain("denied=employee");
    await expect(page.getByText("Access Denied").first()).toBeVisible();
    await expect(page.getByText("Employee Dashboard")).toHaveCount(0);
    await expect(page.getByText(secret.title)).toHaveCount(0);

    // The page's data endpoint answers with the redirect, not the data.
    const data = await page.request.get(`/employee.data?request=${secret.id}`, {
      maxRedirects: 0,
    });
    expect(await data.text()).not.toContain(secret.title);
    expect(await data.text()).not.toContain(other.email);
  });

  test("a visitor opening /employee is sent to /auth", async ({ page }) => {
    await page.goto("/employee");
    await expect(page).toHaveURL(/\/auth$/);
  });

  for (const who of ["customer", "visitor"] as const) {
    test(`a ${who} posting directly changes nothing and reads nothing`, async ({ page }) => {
      const target = await uniqueCustomer();
      const request = await createServiceRequest(
        e2eDb(),
        { id: target.homeId, customerId: target.id },
        { title: "Must stay new", status: "new" },
      );
      if (who === "customer") {
        // Even the owner of the request may not use the employee actions.
        await signIn(page, target);
      }
      const expected = who === "customer" ? 403 : 401;
      const headers = { origin: BASE_URL };

      const status = await page.request.post(`/employee/requests/${request.id}`, {
        form: { intent: "status", status: "complete" },
        headers,
      });
      expect(status.status()).toBe(expected);
      const notes = await page.request.post(`/employee/requests/${request.id}`, {
        form: { intent: "notes", notes: "Written by someone else" },
        headers,
      });
      expect(notes.status()).toBe(expected);
      const [row] = await e2eDb()
        .select()
        .from(serviceRequests)
        .where(eq(serviceRequests.id, request.id));
      expect(row.status).toBe("new");
      expect(row.employeeNotes).toBeNull();

      const create = await page.request.post("/employee/appointments", {
        form: {
          customerId: target.id,
          homeId: target.homeId,
          scheduledDate: businessDate(3),
          startTime: "09:00",
          endTime: "10:00",
          "tasks[0].description": "Sneaky visit",
        },
        headers,
      });
      expect(create.status()).toBe(expected);
      expect(
        await e2eDb().select().from(appointments).where(eq(appointments.customerId, target.id)),
      ).toEqual([]);

      const search = await page.request.get(
        `/employee/customer-options?q=${encodeURIComponent(target.email)}`,
      );
      expect(search.status()).toBe(expected);
      expect(await search.text()).not.toContain(target.email);
      const options = await page.request.get(`/employee/customer-options?customerId=${target.id}`);
      expect(options.status()).toBe(expected);
      expect(await options.text()).not.toContain(request.title);
    });
  }

  test("an employee posting bad input gets a clear answer and nothing changes", async ({
    page,
  }) => {
    await signIn(page, await createEmployee());
    const target = await uniqueCustomer();
    const request = await createServiceRequest(
      e2eDb(),
      { id: target.homeId, customerId: target.id },
      { title: "Stays as it is" },
    );
    const headers = { origin: BASE_URL };
    const bogus = await page.request.post(`/employee/requests/${request.id}`, {
      form: { intent: "status", status: "completed" },
      headers,
    });
    expect(bogus.status()).toBe(400);
    const long = await page.request.post(`/employee/requests/${request.id}`, {
      form: { intent: "notes", notes: "x".repeat(5001) },
      headers,
    });
    expect(long.status()).toBe(400);
    const [row] = await e2eDb()
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.id, request.id));
    expect(row).toMatchObject({ status: "new", employeeNotes: null });

    const other = await uniqueCustomer();
    const mismatched = await page.request.post("/employee/appointments", {
      // Someone else's home for this customer: refused on the server.
      form: {
        customerId: target.id,
        homeId: other.homeId,
        scheduledDate: businessDate(3),
        startTime: "09:00",
        endTime: "10:00",
        "tasks[0].description": "Visit",
        // A weekend day is only warned about: past the warnings, the home is refused.
        bookAnyway: "on",
      },
      headers,
    });
    expect(mismatched.status()).toBe(400);
    expect(await mismatched.text()).toContain("Please select a customer and property");
    const past = await page.request.post("/employee/appointments", {
      form: {
        customerId: target.id,
        homeId: target.homeId,
        scheduledDate: businessDate(-1),
        startTime: "10:00",
        endTime: "09:00",
        "tasks[0].description": "Visit",
      },
      headers,
    });
    expect(past.status()).toBe(400);
    expect(
      await e2eDb().select().from(appointments).where(eq(appointments.customerId, target.id)),
    ).toEqual([]);
  });
});
