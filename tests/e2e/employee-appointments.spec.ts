import { eq } from "drizzle-orm";
import { appointments, appointmentTasks, homes, serviceRequests } from "~/db/schema";
import { createServiceRequest } from "../../server/seed/factories";
import {
  createCustomer,
  createEmployee,
  e2eDb,
  expect,
  expectNoAxeViolations,
  sink,
  signIn,
  test,
} from "./fixtures";
import {
  appointmentDate,
  bookAnywayIfWarned,
  businessDate,
  clearOfBusinessMidnight,
  appointmentCard,
  uniqueCustomer,
  uniqueWord,
} from "./employee-support";

async function addressLine(homeId: string) {
  const [home] = await e2eDb().select().from(homes).where(eq(homes.id, homeId));
  return `${home.address}, ${home.city}, ${home.state} ${home.zipCode}`;
}

async function appointmentsOf(customerId: string) {
  return e2eDb().select().from(appointments).where(eq(appointments.customerId, customerId));
}

test.describe("Create New Appointment", () => {
  test("creates the appointment with its tasks, links picked requests and e-mails the customer an .ics @phone", async ({
    page,
  }) => {
    const lastName = uniqueWord("Handy");
    const staff = await createEmployee({ firstName: "Devon", lastName });
    await signIn(page, staff);
    const customer = await uniqueCustomer();
    const home = { id: customer.homeId, customerId: customer.id };
    const later = await createServiceRequest(e2eDb(), home, {
      title: "Touch up hallway paint",
      priority: "later",
    });
    const next = await createServiceRequest(e2eDb(), home, {
      title: "Fix dripping shower head",
      priority: "next",
      status: "reviewed",
    });
    await createServiceRequest(e2eDb(), home, { title: "Already done", status: "complete" });

    await page.goto("/employee");
    await page.getByRole("button", { name: "Create Appointment" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Appointment" });
    await expect(
      dialog.getByText(
        "Schedule a new appointment with a customer and define the work to be done.",
      ),
    ).toBeVisible();

    // The search asks the server (the list shows the first 200 customers by name); the
    // customer is then picked by name from the one field labelled with the word "Customer".
    await dialog.getByLabel("Find by name, e-mail or phone").fill(customer.fullName);
    const customerSelect = dialog.getByLabel("Customer");
    await expect(customerSelect.locator("option")).toHaveText([
      "Choose a customer",
      customer.fullName,
    ]);
    await customerSelect.selectOption(customer.fullName);
    // The only home is chosen for the employee.
    await expect(dialog.getByLabel("Select Property")).toHaveValue(customer.homeId);
    await dialog
      .getByLabel("Assign Employee (optional)", { exact: true })
      .selectOption({ label: `Devon ${lastName}` });

    // Open requests by title, under Next and Later; completed ones are not offered.
    const existing = dialog.getByRole("group", { name: "Add Existing Customer Tasks" });
    await expect(existing.getByRole("group")).toHaveText([/^Next/, /^Later/]);
    await expect(existing.getByRole("group", { name: "Next" }).getByRole("checkbox")).toHaveCount(
      1,
    );
    await expect(
      existing.getByRole("group", { name: "Next" }).getByRole("checkbox", {
        name: "Fix dripping shower head",
      }),
    ).toHaveAccessibleDescription("Reviewed");
    await expect(
      existing.getByRole("group", { name: "Later" }).getByRole("checkbox", {
        name: "Touch up hallway paint",
      }),
    ).toHaveAccessibleDescription("New");
    await expect(dialog.getByRole("checkbox", { name: "Already done" })).toHaveCount(0);

    // Checked, a request fills the blank task row; unchecked, its row goes again.
    await dialog.getByLabel("Fix dripping shower head").check();
    await expect(dialog.getByLabel("Task 1", { exact: true })).toHaveValue(
      "Fix dripping shower head",
    );
    await dialog.getByLabel("Touch up hallway paint").check();
    await expect(dialog.getByLabel("Task 2", { exact: true })).toHaveValue(
      "Touch up hallway paint",
    );
    await dialog.getByLabel("Touch up hallway paint").uncheck();
    await expect(dialog.getByLabel("Task 2", { exact: true })).toHaveCount(0);
    await expect(dialog.getByLabel("Fix dripping shower head")).toBeChecked();
    // One row: it cannot be removed.
    await expect(dialog.getByRole("button", { name: /^Remove task/ })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Add Task" }).click();
    await dialog.getByLabel("Task 2", { exact: true }).fill("Check the water heater");
    await dialog.getByRole("button", { name: "Add Task" }).click();
    await dialog.getByLabel("Task 3", { exact: true }).fill("Extra row to remove");
    await dialog.getByRole("button", { name: "Remove task 3" }).click();
    await expect(dialog.getByLabel("Task 3", { exact: true })).toHaveCount(0);
    await dialog.getByRole("button", { name: "Add Task" }).click(); // a blank row is dropped

    const day = businessDate(6);
    await dialog.getByLabel("Date", { exact: true }).fill(day);
    await dialog.getByLabel("Start Time").fill("09:30");
    await dialog.getByLabel("End Time").fill("13:00");
    await dialog.getByLabel("Notes (Optional)").fill("Customer works from home; ring twice.");
    await expectNoAxeViolations(page);

    // Slow the answer down a little so the pending label can be seen.
    await page.route("**/employee/appointments*", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await dialog.getByRole("button", { name: "Create Appointment" }).click();
    await expect(dialog.getByRole("button", { name: "Creating..." })).toBeVisible();
    await bookAnywayIfWarned(page, dialog);
    await expect(page.getByText("Appointment created successfully")).toBeVisible();
    await expect(dialog).toBeHidden();

    const [created] = await appointmentsOf(customer.id);
    expect(created).toMatchObject({
      homeId: customer.homeId,
      assignedEmployeeId: staff.id,
      scheduledDate: day,
      startTime: "09:30:00",
      endTime: "13:00:00",
      status: "booked",
      notes: "Customer works from home; ring twice.",
      createdBy: staff.id,
    });
    const tasks = await e2eDb()
      .select()
      .from(appointmentTasks)
      .where(eq(appointmentTasks.appointmentId, created.id));
    expect(tasks.map((t) => t.taskDescription).sort()).toEqual([
      "Check the water heater",
      "Fix dripping shower head",
    ]);
    expect(tasks.find((t) => t.taskDescription === "Fix dripping shower head")).toMatchObject({
      serviceRequestId: next.id,
    });
    // A typed task is a request of the member's too (issue 40 item 2).
    expect(
      tasks.find((t) => t.taskDescription === "Check the water heater")?.serviceRequestId,
    ).toEqual(expect.any(String));
    // The picked request is now scheduled; the other stays open.
    const statuses = await e2eDb()
      .select({ id: serviceRequests.id, status: serviceRequests.status })
      .from(serviceRequests)
      .where(eq(serviceRequests.customerId, customer.id));
    expect(statuses.find((r) => r.id === next.id)?.status).toBe("scheduled");
    expect(statuses.find((r) => r.id === later.id)?.status).toBe("new");

    // It shows in the Appointments tab and the counters.
    await page.getByRole("tab", { name: "Appointments" }).click();
    const card = await appointmentCard(page, customer.fullName);
    await expect(card).toContainText(appointmentDate(day));
    await expect(card).toContainText("9:30 AM");
    await expect(card).toContainText("2 tasks planned");

    // The customer's e-mail, with the calendar file.
    // The same e-mail as a visit the member booked (issue 40 item 9).
    const mail = await sink.waitForMail(customer.email, /visit is booked/i);
    expect(mail.subject).toBe(`Your visit is booked: ${appointmentDate(day)}, 9:30 AM to 1:00 PM`);
    expect(mail.text).toContain(`When: ${appointmentDate(day)}, 9:30 AM to 1:00 PM`);
    expect(mail.text).toContain("Fix dripping shower head");
    expect(mail.text).toContain(`Your handyman: Devon ${lastName}`);
    expect(mail.raw).toContain(`filename=appointment-${day}.ics`);
    expect(mail.raw).toMatch(/text\/calendar/);
    const calendar = decodedCalendar(mail.raw);
    expect(calendar).toContain("SUMMARY:Handyman Appointment");
    expect(calendar).toContain("STATUS:CONFIRMED");

    // The customer sees it on their Appointments tab: the date, 12-hour times, tasks, handyman.
    await page.context().clearCookies();
    await signIn(page, customer);
    await page.goto("/dashboard?tab=appointments");
    const visit = page.getByRole("article", { name: appointmentDate(day) });
    await expect(visit).toContainText("9:30 AM - 1:00 PM");
    await expect(visit).toContainText(await addressLine(customer.homeId));
    await expect(visit.getByRole("listitem")).toHaveText([
      "Fix dripping shower head",
      "Check the water heater",
    ]);
    await expect(visit).toContainText("Customer works from home; ring twice.");
    await expect(visit).toContainText(`Devon ${lastName}`);
  });

  test("checks every rule and changes nothing until they hold", async ({ page }) => {
    // Today is allowed: the test, the browser and the server must all agree on which day it is.
    await clearOfBusinessMidnight();
    await signIn(page, await createEmployee());
    const customer = await uniqueCustomer();
    await page.goto("/employee");
    await page.getByRole("button", { name: "Create Appointment" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Appointment" });

    await dialog.getByRole("button", { name: "Create Appointment" }).click();
    await expect(dialog.getByText("Please select a customer and property")).toBeVisible();
    await expect(dialog.getByText("Please choose a date")).toBeVisible();
    await expect(dialog.getByText("Please choose a start time")).toBeVisible();
    await expect(dialog.getByText("Please choose an end time")).toBeVisible();
    await expect(dialog.getByText("Add at least one planned task")).toBeVisible();

    await dialog.getByLabel("Find by name, e-mail or phone").fill(customer.email);
    await dialog.getByLabel("Select Customer").selectOption(customer.fullName);
    await expect(dialog.getByLabel("Select Property")).toHaveValue(customer.homeId);
    await dialog.getByLabel("Date", { exact: true }).fill(businessDate(-1));
    await dialog.getByLabel("Start Time").fill("15:00");
    await dialog.getByLabel("End Time").fill("14:00");
    await dialog.getByLabel("Task 1", { exact: true }).fill("Replace the doorbell");
    await dialog.getByRole("button", { name: "Create Appointment" }).click();
    await expect(dialog.getByText("The date cannot be earlier than today")).toBeVisible();
    await expect(dialog.getByText("The end time must be after the start time")).toBeVisible();
    await expect(dialog.getByText("Please select a customer and property")).toHaveCount(0);
    expect(await appointmentsOf(customer.id)).toEqual([]);

    await dialog.getByLabel("Date", { exact: true }).fill(businessDate(0));
    await dialog.getByLabel("End Time").fill("16:00");
    await dialog.getByRole("button", { name: "Create Appointment" }).click();
    await bookAnywayIfWarned(page, dialog);
    await expect(page.getByText("Appointment created successfully")).toBeVisible();
    expect(await appointmentsOf(customer.id)).toHaveLength(1);
  });

  test("customers are listed by name, the e-mail only where two share one; picked by keyboard", async ({
    page,
  }) => {
    await signIn(page, await createEmployee());
    // First names that sort ahead of every other customer, so they are among the first 200.
    const first = `Aaa${uniqueWord().toLowerCase()}`;
    const solo = await createCustomer({ firstName: first, lastName: "Solo" });
    const twinA = await createCustomer({ firstName: first, lastName: "Twin" });
    const twinB = await createCustomer({ firstName: first, lastName: "Twin" });
    await page.goto("/employee");
    await page.getByRole("button", { name: "Create Appointment" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Appointment" });
    const customerSelect = dialog.getByLabel("Customer");
    const options = customerSelect.locator("option", { hasText: first });
    await expect(options).toHaveCount(3);
    const labels = await options.allTextContents();
    expect(labels[0]).toBe(`${first} Solo`);
    expect(labels.slice(1).sort()).toEqual(
      [`${first} Twin (${twinA.email})`, `${first} Twin (${twinB.email})`].sort(),
    );
    await expect(dialog.getByLabel("Find by name, e-mail or phone")).toBeVisible();

    // By name straight from the list, with the keyboard.
    await customerSelect.focus();
    await customerSelect.selectOption(`${first} Solo`);
    await expect(customerSelect).toHaveValue(solo.id);
    await expect(dialog.getByLabel("Select Property")).toHaveValue(solo.homeId!);
    await page.keyboard.press("Tab");
    await expect(dialog.getByLabel("Select Property")).toBeFocused();
    await expectNoAxeViolations(page);
  });

  test("a customer without a home cannot get an appointment", async ({ page }) => {
    await signIn(page, await createEmployee());
    const customer = await uniqueCustomer();
    // The home goes away (as if the customer never set one up).
    await e2eDb().delete(homes).where(eq(homes.id, customer.homeId));
    await page.goto("/employee");
    await page.getByRole("button", { name: "Create Appointment" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Appointment" });
    await dialog.getByLabel("Find by name, e-mail or phone").fill(customer.email);
    await dialog.getByLabel("Select Customer").selectOption(customer.fullName);
    await expect(dialog.getByText("This customer has no property on file yet.")).toBeVisible();
    await expect(dialog.getByLabel("Select Property")).toHaveCount(0);
    await dialog.getByLabel("Date", { exact: true }).fill(businessDate(1));
    await dialog.getByLabel("Start Time").fill("09:00");
    await dialog.getByLabel("End Time").fill("10:00");
    await dialog.getByLabel("Task 1", { exact: true }).fill("Anything");
    await dialog.getByRole("button", { name: "Create Appointment" }).click();
    await expect(dialog.getByText("Please select a customer and property")).toBeVisible();
    expect(await appointmentsOf(customer.id)).toEqual([]);
  });
});

/** The .ics part of a raw MIME message, decoded whatever its transfer encoding. */
function decodedCalendar(raw: string) {
  const part = raw.split(/\r?\n--/).find((p) => /filename=appointment-.*\.ics/.test(p));
  if (!part) throw new Error("no .ics part");
  const [headers, ...body] = part.split(/\r?\n\r?\n/);
  const content = body.join("\n\n");
  if (/Content-Transfer-Encoding:\s*base64/i.test(headers)) {
    return Buffer.from(content.replace(/\s+/g, ""), "base64").toString("utf8");
  }
  if (/Content-Transfer-Encoding:\s*quoted-printable/i.test(headers)) {
    return content
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return content;
}
