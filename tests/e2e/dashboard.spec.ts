import { eq } from "drizzle-orm";
import { profiles } from "~/db/schema";
import { createAppointment, createServiceRequest } from "../../server/seed/factories";
import {
  createCustomer,
  createEmployee,
  e2eDb,
  expect,
  expectNoAxeViolations,
  signIn,
  test,
} from "./fixtures";

/** A date N days from today in the business time zone, as YYYY-MM-DD. */
function dayFromToday(days: number) {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

function longDate(isoDate: string) {
  const [y, m, d] = isoDate.split("-").map(Number);
  return new Intl.DateTimeFormat("en-US", {
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(Date.UTC(y, m - 1, d)));
}

test.describe("customer dashboard", () => {
  test("header, tabs and empty states of a new member; passes axe @phone", async ({ page }) => {
    const customer = await createCustomer({ firstName: "Avery" });
    await signIn(page, customer);
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Welcome, Avery" })).toBeVisible();
    await expect(page.getByText("Manage your service requests and appointments")).toBeVisible();
    await expect(page.getByRole("heading", { name: "No Service Requests" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Create First Request" })).toBeVisible();
    // 'New Request' is there from the start, not only once a request exists.
    await expect(page.getByRole("button", { name: "New Request", exact: true })).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole("tab", { name: /^(Appointments|Appts)$/ }).click();
    await expect(page.getByRole("heading", { name: "Upcoming Appointments (0)" })).toBeVisible();
    await expect(page.getByText("No appointments scheduled")).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByRole("tab", { name: /^(Completed|Done)$/ }).click();
    await expect(page.getByRole("heading", { name: "Completed Work" })).toBeVisible();
    await expect(page.getByText("No completed work yet")).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("the welcome falls back to the e-mail when there is no first name", async ({ page }) => {
    const customer = await createCustomer();
    await e2eDb().update(profiles).set({ firstName: null }).where(eq(profiles.userId, customer.id));
    await signIn(page, customer);
    await page.goto("/dashboard");
    await expect(
      page.getByRole("heading", { level: 1, name: `Welcome, ${customer.email}` }),
    ).toBeVisible();
  });

  test("tabs read Requests, Appointments, Completed on wide screens", async ({ page }) => {
    await signIn(page, await createCustomer());
    await page.goto("/dashboard");
    for (const name of ["Requests", "Appointments", "Completed"]) {
      await expect(page.getByRole("tab", { name, exact: true })).toBeVisible();
    }
  });

  test("the tabs are one tab stop; the arrow keys, Home and End show a tab (ADR 102)", async ({
    page,
  }) => {
    await signIn(page, await createCustomer());
    await page.goto("/dashboard?tab=schedule");
    const tab = (name: string) => page.getByRole("tab", { name, exact: true });
    await expect(tab("Schedule")).toHaveAttribute("aria-selected", "true");
    await expect(tab("Schedule")).toHaveAttribute("tabindex", "0");
    await expect(tab("Requests")).toHaveAttribute("tabindex", "-1");
    // The shown panel is the one named by the shown tab; the others are hidden.
    const panel = page.getByRole("tabpanel");
    await expect(panel).toHaveCount(1);
    await expect(panel).toHaveAttribute(
      "aria-labelledby",
      (await tab("Schedule").getAttribute("id"))!,
    );
    await tab("Schedule").focus();
    await page.keyboard.press("ArrowRight");
    await expect(tab("Completed")).toBeFocused();
    await expect(tab("Completed")).toHaveAttribute("aria-selected", "true");
    await expect(page).toHaveURL(/[?&]tab=completed/);
    await expect(page.getByRole("heading", { name: "Completed Work" })).toBeVisible();
    await page.keyboard.press("End");
    await expect(tab("My Home")).toBeFocused();
    await expect(page).toHaveURL(/[?&]tab=home/);
    await page.keyboard.press("ArrowRight");
    await expect(tab("Requests")).toBeFocused();
    await expect(page).not.toHaveURL(/tab=/);
    // The Requests tab is shown and keeps the focus once its panel is drawn.
    await expect(tab("Requests")).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("heading", { name: "No Service Requests" })).toBeVisible();
    await expect(tab("Requests")).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(tab("My Home")).toBeFocused();
    await expect(tab("My Home")).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Home");
    await expect(tab("Requests")).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("heading", { name: "No Service Requests" })).toBeVisible();
  });

  test("tabs read Tasks, Appts, Done on small screens @phone-only", async ({ page }) => {
    await signIn(page, await createCustomer());
    await page.goto("/dashboard");
    for (const name of ["Tasks", "Appts", "Done"]) {
      await expect(page.getByRole("tab", { name, exact: true })).toBeVisible();
    }
    await expect(page.getByRole("tab", { name: "Requests", exact: true })).toHaveCount(0);
  });

  test("a page load arrives complete, with the lists in the HTML", async ({ page }) => {
    await signIn(page, await createCustomer());
    const html = await (await page.request.get("/dashboard")).text();
    expect(html).toContain("No Service Requests");
    expect(html).not.toContain("Loading your dashboard...");
  });

  test("a navigation inside the app shows 'Loading your dashboard...' until the lists arrive", async ({
    page,
    context,
  }) => {
    await signIn(page, await createCustomer());
    // Load the dashboard's code first; only its data should come over the slow line.
    await page.goto("/dashboard");
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
    await page.evaluate(() =>
      (
        window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }
      ).__reactRouterDataRouter.navigate("/dashboard/book"),
    );
    await expect(page).toHaveURL(/\/dashboard\/book$/);
    await page.evaluate(() => {
      const w = window as unknown as { seenLoading: boolean };
      w.seenLoading = false;
      new MutationObserver(() => {
        if (document.body.textContent?.includes("Loading your dashboard...")) w.seenLoading = true;
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // A slow connection, so the streamed lists arrive after the page itself.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 300,
      downloadThroughput: 2 * 1024,
      uploadThroughput: -1,
    });
    await page.evaluate(() =>
      (
        window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }
      ).__reactRouterDataRouter.navigate("/dashboard"),
    );
    await expect(page.getByRole("heading", { name: "No Service Requests" })).toBeVisible({
      timeout: 20_000,
    });
    expect(
      await page.evaluate(() => (window as unknown as { seenLoading: boolean }).seenLoading),
    ).toBe(true);
  });

  test("visitors go to /auth and employees to /employee", async ({ page }) => {
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth$/);
    await signIn(page, await createEmployee());
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/employee$/);
  });

  test("a customer sent from /employee hears 'Access Denied' @phone", async ({ page }) => {
    await signIn(page, await createCustomer());
    await page.goto("/employee");
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText("Access Denied")).toBeVisible();
    await expect(page.getByText("You don't have employee access.")).toBeVisible();
  });

  test("the profile menu opens from the keyboard; Profile opens Profile Settings @phone", async ({
    page,
  }) => {
    await signIn(page, await createCustomer({ firstName: "Maria" }));
    await page.goto("/dashboard");
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
    const trigger = page.getByRole("button", { name: /^Profile menu/ });
    await expect(trigger).toHaveAccessibleName("Profile menu Maria");
    await trigger.focus();
    await page.keyboard.press("Enter");
    const menu = page.getByRole("menu");
    await expect(menu.getByRole("menuitem")).toHaveText(["Profile", "Sign Out"]);
    await expect(menu.getByRole("menuitem", { name: "Profile" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(menu.getByRole("menuitem", { name: "Sign Out" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(trigger).toBeFocused();

    await page.keyboard.press("ArrowDown");
    await expect(menu.getByRole("menuitem", { name: "Profile" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog", { name: "Profile Settings" })).toBeVisible();
  });

  test("the profile menu signs out", async ({ page }) => {
    await signIn(page, await createCustomer({ firstName: "Robin" }));
    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Profile menu Robin", exact: true }).click();
    await expect(page.getByRole("menuitem", { name: "Profile" })).toBeVisible();
    await page.getByRole("menuitem", { name: "Sign Out" }).click();
    await expect(page.getByText("You have been successfully signed out.")).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth$/);
  });
});

test.describe("appointments tab", () => {
  test("lists upcoming approved appointments with everything a member needs @phone", async ({
    page,
  }) => {
    const customer = await createCustomer({
      home: { address: "418 Ponce de Leon Ave", city: "Decatur", state: "GA", zipCode: "30030" },
    });
    const handyman = await createEmployee({ firstName: "Dana", lastName: "Whitfield" });
    const home = { id: customer.homeId!, customerId: customer.id };
    const soon = dayFromToday(3);
    const later = dayFromToday(10);
    await createAppointment(e2eDb(), home, {
      scheduledDate: later,
      startTime: "13:00",
      endTime: "14:45",
      tasks: ["Hang gallery wall"],
      notes: null,
    });
    await createAppointment(e2eDb(), home, {
      scheduledDate: soon,
      startTime: "09:00",
      endTime: "12:30",
      tasks: ["Fix the kitchen faucet", "Patch drywall"],
      notes: "Gate code 2468",
      assignedEmployeeId: handyman.id,
    });
    // Past visits are not upcoming.
    await createAppointment(e2eDb(), home, {
      scheduledDate: dayFromToday(-5),
      startTime: "09:00",
      endTime: "10:00",
      tasks: ["Old visit"],
    });

    await signIn(page, customer);
    await page.goto("/dashboard?tab=appointments");
    await expect(page.getByRole("heading", { name: "Upcoming Appointments (2)" })).toBeVisible();
    const cards = page.getByRole("article");
    await expect(cards).toHaveCount(2);
    const first = cards.nth(0);
    await expect(first.getByRole("heading", { name: longDate(soon) })).toBeVisible();
    await expect(first.getByText("9:00 AM - 12:30 PM")).toBeVisible();
    await expect(first.getByText("418 Ponce de Leon Ave, Decatur, GA 30030")).toBeVisible();
    await expect(first.getByRole("listitem")).toHaveText([
      "Fix the kitchen faucet",
      "Patch drywall",
    ]);
    await expect(first.getByText("Gate code 2468")).toBeVisible();
    await expect(first.getByText("Dana Whitfield")).toBeVisible();
    // No photo: the first letter of the first name.
    await expect(first.getByText("D", { exact: true })).toBeVisible();
    const second = cards.nth(1);
    await expect(second.getByRole("heading", { name: longDate(later) })).toBeVisible();
    await expect(second.getByText("1:00 PM - 2:45 PM")).toBeVisible();
    await expect(page.getByText("Old visit")).toHaveCount(0);
    await expectNoAxeViolations(page);
  });

  test("exports an appointment as an .ics file", async ({ page }) => {
    const customer = await createCustomer({
      home: { address: "77 Roswell Mill Rd", city: "Roswell", state: "GA", zipCode: "30075" },
    });
    const date = dayFromToday(4);
    const appointment = await createAppointment(
      e2eDb(),
      { id: customer.homeId!, customerId: customer.id },
      {
        scheduledDate: date,
        startTime: "10:00",
        endTime: "11:30",
        tasks: ["Replace porch light"],
        notes: "Dog in the yard",
      },
    );
    await signIn(page, customer);
    await page.goto("/dashboard?tab=appointments");
    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("button", { name: "Add to Calendar" }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe(`appointment-${date}.ics`);
    await expect(page.getByText("Calendar Event Downloaded")).toBeVisible();
    await expect(
      page.getByText("The appointment has been saved to your downloads folder."),
    ).toBeVisible();

    const ics = (await (await download.createReadStream()).toArray())
      .map((chunk) => chunk.toString())
      .join("")
      .replace(/\r\n[ \t]/g, "");
    expect(ics).toContain("SUMMARY:Handyman Appointment");
    expect(ics).toContain("LOCATION:77 Roswell Mill Rd\\, Roswell\\, GA");
    expect(ics).toContain(
      "DESCRIPTION:Planned tasks:\\n- Replace porch light\\n\\nNotes: Dog in the yard",
    );
    expect(ics).toContain("STATUS:CONFIRMED");
    expect(ics).toContain(`UID:appointment-${appointment.id}@peachtree-handyman`);
    // 10:00 in Atlanta, whichever offset applies that day.
    const start = /DTSTART:(\d{8}T\d{6}Z)/.exec(ics)?.[1];
    const asDate = new Date(
      start!.replace(/(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/, "$1-$2-$3T$4:$5:$6Z"),
    );
    expect(
      new Intl.DateTimeFormat("en-US", {
        timeZone: "America/New_York",
        hour: "numeric",
        minute: "2-digit",
      }).format(asDate),
    ).toBe("10:00 AM");
  });
});

test.describe("appointments tab without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("'Add to Calendar' is a button that downloads the .ics", async ({ page }) => {
    const customer = await createCustomer();
    const date = dayFromToday(6);
    await createAppointment(
      e2eDb(),
      { id: customer.homeId!, customerId: customer.id },
      { scheduledDate: date, startTime: "08:00", endTime: "09:45", tasks: ["Clean gutters"] },
    );
    await signIn(page, customer);
    await page.goto("/dashboard?tab=appointments");
    const downloadPromise = page.waitForEvent("download");
    await page.getByRole("button", { name: "Add to Calendar" }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toBe(`appointment-${date}.ics`);
    const ics = (await (await download.createReadStream()).toArray()).join("");
    expect(ics).toContain("SUMMARY:Handyman Appointment");
    // The file comes as an attachment: the page stays where it was.
    await expect(page.getByRole("heading", { name: "Upcoming Appointments (1)" })).toBeVisible();
  });
});

test.describe("completed tab", () => {
  test("'Completed Work' lists the requests whose status is complete", async ({ page }) => {
    const customer = await createCustomer();
    const home = { id: customer.homeId!, customerId: customer.id };
    await createServiceRequest(e2eDb(), home, { title: "Replace porch light", status: "complete" });
    await createServiceRequest(e2eDb(), home, { title: "Paint the fence", status: "scheduled" });
    await signIn(page, customer);
    await page.goto("/dashboard");
    await page.getByRole("tab", { name: "Completed" }).click();
    const panel = page.getByRole("tabpanel");
    await expect(panel.getByRole("heading", { name: "Completed Work" })).toBeVisible();
    await expect(panel.getByRole("heading", { name: "Replace porch light" })).toBeVisible();
    await expect(panel.getByText("Complete", { exact: true })).toBeVisible();
    await expect(panel.getByText("Paint the fence")).toHaveCount(0);
  });
});
