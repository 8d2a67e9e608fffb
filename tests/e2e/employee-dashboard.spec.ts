import { eq } from "drizzle-orm";
import sharp from "sharp";
import { introCalls, serviceRequests } from "~/db/schema";
import { createAppointment, createServiceRequest } from "../../server/seed/factories";
import { BASE_URL } from "../support/ports";
import { createEmployee, e2eDb, expect, expectNoAxeViolations, signIn, test } from "./fixtures";
import {
  appointmentDate,
  businessDate,
  expectedCounters,
  longDate,
  tableDate,
  appointmentCard,
  uniqueCustomer,
  uniqueWord,
} from "./employee-support";

test.describe("employee dashboard", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, await createEmployee());
  });

  test("header, counters and tabs; the counters follow the data @phone", async ({
    page,
    consoleErrors,
  }) => {
    await page.goto("/employee");
    await expect(page.getByRole("heading", { level: 1, name: "Employee Dashboard" })).toBeVisible();
    await expect(page.getByText("Manage all customer requests and appointments")).toBeVisible();
    await expect(page.getByRole("button", { name: "Create Appointment" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign Out" })).toBeVisible();
    for (const name of ["All Requests", "Appointments", "Customers"]) {
      await expect(page.getByRole("tab", { name })).toBeVisible();
    }

    const counters = page.getByRole("list", { name: "Counters" });
    const readCounter = async (label: string) =>
      Number(
        (
          await counters
            .getByRole("listitem")
            .filter({ hasText: label })
            .locator("[data-counter]")
            .textContent()
        )?.replace(/,/g, ""),
      );
    const matchesData = async () => {
      const expected = await expectedCounters();
      await page.reload();
      const shown = {
        "New Requests": await readCounter("New Requests"),
        Reviewed: await readCounter("Reviewed"),
        Scheduled: await readCounter("Scheduled"),
        Completed: await readCounter("Completed"),
      };
      const after = await expectedCounters();
      // Other tests may write between the two reads: compare only when the data held still.
      return JSON.stringify(expected) === JSON.stringify(after)
        ? JSON.stringify(shown) === JSON.stringify({ ...expected, total: undefined })
        : false;
    };
    await expect.poll(matchesData, { timeout: 20_000 }).toBe(true);

    // New data moves the counters: one new, one reviewed, one complete, one upcoming visit.
    const customer = await uniqueCustomer();
    const home = { id: customer.homeId, customerId: customer.id };
    await createServiceRequest(e2eDb(), home, { title: "Counter check new" });
    await createServiceRequest(e2eDb(), home, {
      title: "Counter check reviewed",
      status: "reviewed",
    });
    await createServiceRequest(e2eDb(), home, { title: "Counter check done", status: "complete" });
    await createAppointment(e2eDb(), home, {
      scheduledDate: businessDate(2),
      startTime: "10:00",
      endTime: "11:00",
      tasks: ["Counter check visit"],
    });
    await expect.poll(matchesData, { timeout: 20_000 }).toBe(true);
    await expect(page.getByRole("heading", { name: /^All Requests \(\d+\)$/ })).toHaveText(
      `All Requests (${(await expectedCounters()).total})`,
    );
    await expectNoAxeViolations(page);
    expect(consoleErrors).toEqual([]);
  });

  test("All Requests: each row's details, search by title or customer, status filter, pages", async ({
    page,
  }) => {
    const customer = await uniqueCustomer();
    const home = { id: customer.homeId, customerId: customer.id };
    const word = uniqueWord("Tile");
    const description =
      "The grout around the shower tiles is cracking and water seems to get behind the wall near the corner.";
    const reviewed = await createServiceRequest(e2eDb(), home, {
      title: `Regrout ${word} shower`,
      description,
      priority: "next",
      status: "reviewed",
      employeeNotes: "Bring the grout float and sealer",
    });
    const fresh = await createServiceRequest(e2eDb(), home, {
      title: "Hang two mirrors",
      priority: "later",
    });

    await page.goto("/employee");
    const search = page.getByLabel("Search requests");
    await search.fill(word.toLowerCase());
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`q=${word.toLowerCase()}`));
    const rows = page.getByRole("region", { name: "All requests" }).getByRole("row");
    await expect(rows).toHaveCount(2); // header + one request
    const row = rows.nth(1);
    await expect(row).toContainText(`#${reviewed.id.slice(-6)}`);
    await expect(row).toContainText(`Regrout ${word} shower`);
    await expect(row.locator("[data-status]")).toHaveText("Reviewed");
    await expect(row.locator("[data-priority]")).toHaveText("Priority: Next");
    await expect(row).toContainText(`${description.slice(0, 80)}...`);
    await expect(row).not.toContainText(description.slice(80));
    await expect(row).toContainText(
      `${customer.fullName} · ${"" + (await addressOf(customer.homeId))}`,
    );
    await expect(row).toContainText(`Created ${tableDate(reviewed.createdAt)}`);
    await expect(row).toContainText("Notes: Bring the grout...");
    for (const header of ["Request Details", "Status", "Actions"]) {
      await expect(page.getByRole("columnheader", { name: header })).toBeVisible();
    }

    // By the customer's name: both requests, newest first.
    await search.fill(customer.fullName.toUpperCase());
    await page.getByRole("button", { name: "Search" }).click();
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText("Hang two mirrors");
    await expect(rows.nth(2)).toContainText(`Regrout ${word} shower`);
    await expect(rows.nth(1).locator("[data-priority]")).toHaveText("Priority: Later");
    await expect(rows.nth(1).locator("[data-status]")).toHaveText("New");

    // The status filter narrows the same search, as soon as it changes.
    const show = page.getByLabel("Show requests");
    await expect(show.locator("option")).toHaveText([
      "All",
      "New",
      "Reviewed",
      "Scheduled",
      "Complete",
    ]);
    await show.selectOption("new");
    await expect(page).toHaveURL(/status=new/);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText("Hang two mirrors");
    await expect(rows.nth(1)).toHaveAttribute("data-request-id", fresh.id);

    await show.selectOption("all");
    await expect(rows).toHaveCount(3);

    await page.getByRole("link", { name: "Clear" }).click();
    await expect(page).not.toHaveURL(/q=/);
    await expect(search).toHaveValue("");
    await expect(show).toHaveValue("all");
    // Typing is enough: the search applies a moment after it stops.
    await search.fill(uniqueWord("nothing"));
    await expect(page.getByText("No requests match this search")).toBeVisible();
    await expect(search).toBeFocused();
  });

  test("All Requests filter and search work without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, await createEmployee());
    const customer = await uniqueCustomer();
    const home = { id: customer.homeId, customerId: customer.id };
    const word = uniqueWord("Gutter");
    await createServiceRequest(e2eDb(), home, { title: `Clean ${word} gutters` });
    await createServiceRequest(e2eDb(), home, {
      title: `Seal ${word} deck`,
      status: "complete",
    });

    await page.goto("/employee");
    await page.getByLabel("Search requests").fill(word);
    await page.getByLabel("Show requests").selectOption("complete");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/status=complete/);
    const rows = page.getByRole("region", { name: "All requests" }).getByRole("row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText(`Seal ${word} deck`);
    await expect(page.getByLabel("Show requests")).toHaveValue("complete");
    await expect(page.getByLabel("Search requests")).toHaveValue(word);

    await page.getByLabel("Show requests").selectOption("all");
    await page.getByLabel("Search requests").press("Enter");
    await expect(rows).toHaveCount(3);
    await context.close();
  });

  test("All Requests pages through results 25 at a time", async ({ page }) => {
    const customer = await uniqueCustomer();
    const home = { id: customer.homeId, customerId: customer.id };
    const start = Date.now() - 60 * 60_000;
    for (let i = 0; i < 27; i++) {
      await createServiceRequest(e2eDb(), home, {
        title: `Paged task ${String(i).padStart(2, "0")}`,
        createdAt: new Date(start + i * 60_000),
      });
    }
    await page.goto(`/employee?q=${encodeURIComponent(customer.fullName)}`);
    const rows = page.getByRole("region", { name: "All requests" }).getByRole("row");
    await expect(rows).toHaveCount(26);
    await expect(rows.nth(1)).toContainText("Paged task 26");
    await expect(page.getByRole("link", { name: "Newer" })).toHaveCount(0);
    await page.getByRole("link", { name: "Older" }).click();
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText("Paged task 01");
    await expect(rows.nth(2)).toContainText("Paged task 00");
    await expect(page.getByRole("link", { name: "Older" })).toHaveCount(0);
    await page.getByRole("link", { name: "Newer" }).click();
    await expect(rows).toHaveCount(26);
    await expect(rows.nth(25)).toContainText("Paged task 02");
  });

  test("request detail dialog: header, customer, status select and notes @phone", async ({
    page,
  }) => {
    const customer = await uniqueCustomer({ propertyNotes: "Dog in the backyard" });
    const home = { id: customer.homeId, customerId: customer.id };
    const request = await createServiceRequest(e2eDb(), home, {
      title: `Fix ${uniqueWord()} cabinet hinge`,
      description: null,
      priority: "next",
    });
    await page.goto(`/employee?q=${encodeURIComponent(request.title)}`);
    await page
      .getByRole("link", { name: new RegExp(`^View request ${request.id.slice(-6)}`) })
      .click();

    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: request.title })).toBeVisible();
    await expect(dialog).toContainText(`#${request.id.slice(-8)}`);
    await expect(dialog.locator("[data-status]")).toHaveText("New");
    await expect(dialog.locator("[data-priority]")).toHaveText("Priority: Next");
    await expect(dialog).toContainText(`Created ${longDate(request.createdAt)}`);
    await expect(dialog.getByText("No description provided")).toBeVisible();
    await expect(dialog).toContainText(customer.fullName);
    await expect(dialog.getByRole("link", { name: "(404) 555-0199" })).toBeVisible();
    await expect(dialog).toContainText("Dunwoody, GA 30338");
    await expect(dialog).toContainText("Dog in the backyard");
    await expect(dialog.getByRole("heading", { name: "Photos (0)" })).toBeVisible();
    await expect(dialog).toContainText(request.id);
    await expect(dialog).toContainText("0 photos");
    await expect(page).toHaveURL(new RegExp(`request=${request.id}`));
    await expectNoAxeViolations(page);

    // Status: saved at once, with the spec's notice.
    await dialog.getByLabel("Status").selectOption("scheduled");
    await expect(page.getByText("Status updated successfully")).toBeVisible();
    await expect(dialog.locator("[data-status]")).toHaveText("Scheduled");
    await expect.poll(async () => (await statusOf(request.id)).status).toBe("scheduled");

    // Notes: cancel discards, save keeps.
    await expect(dialog.getByText("No notes added yet")).toBeVisible();
    await dialog.getByRole("button", { name: "Edit notes" }).click();
    await dialog.getByRole("textbox", { name: "Notes" }).fill("Thrown away");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog.getByText("No notes added yet")).toBeVisible();
    await dialog.getByRole("button", { name: "Edit notes" }).click();
    await dialog.getByRole("textbox", { name: "Notes" }).fill("Customer prefers mornings");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Notes saved successfully")).toBeVisible();
    await expect(dialog.getByText("Customer prefers mornings")).toBeVisible();
    expect((await statusOf(request.id)).employeeNotes).toBe("Customer prefers mornings");

    // Closing the dialog shows the 15-character preview in the table.
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page).not.toHaveURL(/request=/);
    await expect(page.getByRole("row").filter({ hasText: request.title })).toContainText(
      "Notes: Customer prefer...",
    );
  });

  test("request detail: the customer's photos, counted, each opening full size in a new tab", async ({
    page,
  }) => {
    const customer = await uniqueCustomer();
    const request = await createServiceRequest(
      e2eDb(),
      { id: customer.homeId, customerId: customer.id },
      { title: `Photo ${uniqueWord()} leak`, description: "See the pictures" },
    );
    // The customer uploads two photos through their own dashboard's upload endpoint.
    const employeeCookies = await page.context().cookies();
    await page.context().clearCookies();
    await signIn(page, customer);
    for (const colour of ["#aa3333", "#3333aa"]) {
      const photo = await sharp({
        create: { width: 640, height: 480, channels: 3, background: colour },
      })
        .jpeg()
        .toBuffer();
      const upload = await page.request.post(`/dashboard/requests/${request.id}/photos`, {
        multipart: { photo: { name: "leak.jpg", mimeType: "image/jpeg", buffer: photo } },
        headers: { origin: BASE_URL, accept: "application/json" },
      });
      expect(upload.status(), await upload.text()).toBe(200);
    }
    await page.context().clearCookies();
    await page.context().addCookies(employeeCookies);

    await page.goto(`/employee?request=${request.id}`);
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: "Photos (2)" })).toBeVisible();
    await expect(dialog).toContainText("2 photos");
    const links = dialog.getByRole("link", { name: /opens full size in a new tab/ });
    await expect(links).toHaveCount(2);
    await expect(links.first()).toHaveAttribute("target", "_blank");
    const opened = page.context().waitForEvent("page");
    await links.first().click();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toMatch(/\/request-photos\/[0-9a-f-]{36}$/);
    const full = await page.request.get(new URL(tab.url()).pathname);
    expect(full.headers()["content-type"]).toBe("image/jpeg");
    expect((await sharp(await full.body()).metadata()).width).toBe(640);
    await tab.close();
    await expectNoAxeViolations(page);
  });

  test("request detail: failures are reported and change nothing", async ({ page }) => {
    const customer = await uniqueCustomer();
    const request = await createServiceRequest(
      e2eDb(),
      { id: customer.homeId, customerId: customer.id },
      { title: `Vanishing ${uniqueWord()} request`, description: "Will be deleted" },
    );
    await page.goto(`/employee?request=${request.id}`);
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: request.title })).toBeVisible();
    // The request disappears (the customer deleted it) while the employee looks at it.
    await e2eDb().delete(serviceRequests).where(eq(serviceRequests.id, request.id));
    await dialog.getByLabel("Status").selectOption("complete");
    await expect(page.getByText("Failed to update status")).toBeVisible();
    await page.goto(`/employee?request=${request.id}`);
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });

  test("Appointments tab: scheduled cards, past appointments and intro calls @phone", async ({
    page,
  }) => {
    const customer = await uniqueCustomer();
    const home = { id: customer.homeId, customerId: customer.id };
    const day = businessDate(5);
    await createAppointment(e2eDb(), home, {
      scheduledDate: day,
      startTime: "14:30",
      endTime: "16:00",
      tasks: ["Mount the TV", "Hang shelves", "Fix the closet door"],
    });
    const pastDay = businessDate(-10);
    await createAppointment(e2eDb(), home, {
      scheduledDate: pastDay,
      startTime: "08:00",
      endTime: "09:00",
      tasks: ["Old visit"],
    });
    const caller = `Caller ${uniqueWord()}`;
    await e2eDb()
      .insert(introCalls)
      .values({
        name: caller,
        email: "caller@example.com",
        phone: "(470) 555-0111",
        startsAt: new Date(Date.now() + 3 * 86_400_000),
      });

    await page.goto("/employee");
    await page.getByRole("tab", { name: "Appointments" }).click();
    await expect(page).toHaveURL(/tab=appointments/);
    await expect(page.getByRole("heading", { name: "Appointments Management" })).toBeVisible();
    // Other tests add appointments in parallel: read the count, then a page rendered after it.
    await expect(async () => {
      const scheduled = (await expectedCounters()).Scheduled;
      await page.reload();
      await expect(
        page.getByRole("heading", { name: /^Scheduled Appointments \(\d+\)$/ }),
      ).toHaveText(`Scheduled Appointments (${scheduled})`, { timeout: 2_000 });
    }).toPass();
    const card = await appointmentCard(page, customer.fullName);
    await expect(card).toContainText(await addressOf(customer.homeId));
    await expect(card).toContainText(appointmentDate(day));
    await expect(card).toContainText("2:30 PM");
    await expect(card).toContainText("3 tasks planned");
    await expect(card).toContainText("Scheduled");
    await expect(card).not.toContainText("Old visit");

    const calls = page.getByRole("list", { name: "Upcoming intro calls" });
    await expect(calls.getByRole("listitem").filter({ hasText: caller })).toContainText(
      "caller@example.com",
    );
    // The caller's number as typed, dialled as digits.
    await expect(
      calls
        .getByRole("listitem")
        .filter({ hasText: caller })
        .getByRole("link", { name: "(470) 555-0111" }),
    ).toHaveAttribute("href", "tel:+14705550111");
    await expectNoAxeViolations(page);

    await page.getByRole("link", { name: "Show past appointments" }).click();
    const past = await appointmentCard(page, customer.fullName, "Past appointments");
    await expect(past).toContainText(appointmentDate(pastDay));
    await expect(past).toContainText("8:00 AM");
    await expect(past).toContainText("1 task planned");
  });

  test("Customers tab: the real list with open requests and the next visit, searchable", async ({
    page,
  }) => {
    const customer = await uniqueCustomer();
    const home = { id: customer.homeId, customerId: customer.id };
    await createServiceRequest(e2eDb(), home, { title: "Open one" });
    await createServiceRequest(e2eDb(), home, { title: "Open two", status: "reviewed" });
    await createServiceRequest(e2eDb(), home, { title: "Done", status: "complete" });
    const day = businessDate(9);
    await createAppointment(e2eDb(), home, {
      scheduledDate: day,
      startTime: "13:15",
      endTime: "15:00",
      tasks: ["Visit"],
    });

    await page.goto("/employee?tab=customers");
    await expect(page.getByText("Customer management features coming soon...")).toHaveCount(0);
    await page.getByLabel("Search by name, e-mail or phone").fill(customer.email);
    await page.getByRole("button", { name: "Search" }).click();
    const table = page.getByRole("region", { name: "Customers" });
    const rows = table.getByRole("row");
    await expect(rows).toHaveCount(2);
    const cells = rows.nth(1).getByRole("cell");
    await expect(cells.nth(0)).toHaveText(customer.fullName);
    await expect(cells.nth(1)).toHaveText(customer.email);
    await expect(cells.nth(2)).toHaveText("(404) 555-0199");
    await expect(cells.nth(3)).toContainText(await addressOf(customer.homeId));
    await expect(cells.nth(3)).toContainText("Dunwoody, GA 30338");
    await expect(cells.nth(4)).toHaveText("2");
    await expect(cells.nth(5)).toContainText(appointmentDate(day));
    await expect(cells.nth(5)).toContainText("1:15 PM");

    await page.getByLabel("Search by name, e-mail or phone").fill(customer.fullName.split(" ")[1]);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(rows).toHaveCount(2);
    await expectNoAxeViolations(page);
  });

  test("every tab and dialog fits a phone screen without sideways scrolling @phone-only", async ({
    page,
  }) => {
    const customer = await uniqueCustomer();
    const request = await createServiceRequest(
      e2eDb(),
      { id: customer.homeId, customerId: customer.id },
      { title: "A request with a rather long title to see how it wraps on a phone" },
    );
    const overflow = () =>
      page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
    for (const url of [
      "/employee",
      "/employee?tab=appointments",
      "/employee?tab=customers",
      `/employee?request=${request.id}`,
    ]) {
      await page.goto(url);
      // (With the dialog open the page behind it is hidden from the accessibility tree.)
      await expect(page.locator("h1", { hasText: "Employee Dashboard" })).toBeVisible();
      expect(await overflow(), url).toBe(0);
    }
    await page.goto("/employee");
    await page.getByRole("button", { name: "Create Appointment" }).click();
    const dialog = page.getByRole("dialog", { name: "Create New Appointment" });
    await dialog.getByLabel("Find by name, e-mail or phone").fill(customer.email);
    await dialog.getByLabel("Select Customer").selectOption(customer.fullName);
    await dialog.getByRole("button", { name: "Add Task" }).click();
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
    await dialog.getByRole("button", { name: "Remove task 2" }).click();
    await expect(dialog.getByRole("button", { name: /^Remove task/ })).toHaveCount(0);
  });

  test("Sign Out ends the session", async ({ page }) => {
    await page.goto("/employee");
    await page.getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByText("You have been successfully signed out.")).toBeVisible();
    await expect(page).toHaveURL(/\/auth/);
    await page.goto("/employee");
    await expect(page).toHaveURL(/\/auth/);
  });
});

async function addressOf(homeId: string) {
  const home = await e2eDb().query.homes.findFirst({ where: (h, { eq: is }) => is(h.id, homeId) });
  return home!.address;
}

async function statusOf(requestId: string) {
  const [row] = await e2eDb()
    .select({ status: serviceRequests.status, employeeNotes: serviceRequests.employeeNotes })
    .from(serviceRequests)
    .where(eq(serviceRequests.id, requestId));
  return row;
}
