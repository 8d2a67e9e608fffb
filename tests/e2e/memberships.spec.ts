import type { Browser, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { appointments } from "~/db/schema";
import { BASE_URL } from "../support/ports";
import { addPart } from "~/features/memberships/parts.server";
import { recordPayment } from "~/features/memberships/money.server";
import { createMembership, createMemberVisit } from "../../server/seed/factories";
import { createEmployee, e2eDb, expect, expectNoAxeViolations, signIn, test } from "./fixtures";
import { businessDate, clearOfBusinessMidnight, uniqueCustomer } from "./employee-support";
import { addMonths, plainDate } from "~/lib/business-calendar";

/*
 * Memberships end to end: staff start one and record payments, the member sees the hours
 * meter; a visit completed early gives minutes back; a part over $100 waits for approval; one
 * shopping fee per visit; the member cancels and the dialog's refund is the ledger's; nobody
 * reads another member's statement by URL.
 */

type Customer = Awaited<ReturnType<typeof uniqueCustomer>>;

/** The meter of a Complete monthly membership started on `start` (ADR 057). */
function monthlyMeter(left: string, start = businessDate(0)) {
  const today = businessDate(0);
  return `3 h 30 min paid, ${left} left now; 3 h 30 min more on ${plainDate(addMonths(start, 1), { today: today })}`;
}

/** The settlement's lines and result as a region shows them (ADR 058). */
async function settlementOf(page: Page, testId: string) {
  return [
    ...(await page.getByTestId(`${testId}-line`).allTextContents()),
    (await page.getByTestId(`${testId}-result`).textContent())!,
  ];
}

async function pageAs(browser: Browser, account: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, account);
  return page;
}

/**
 * Staff start a membership for `customer` from the Customers tab, with its first payment
 * (issue 39, item 8: the hours come with it); returns the page on it.
 */
async function startMembership(
  staff: Page,
  customer: Customer,
  options: {
    plan?: string;
    billing?: string;
    startDate?: string;
    firstPayment?: string;
    reference?: string;
  } = {},
) {
  await staff.goto(`/employee?tab=customers&cq=${encodeURIComponent(customer.email)}`);
  await staff.getByRole("link", { name: `Start membership for ${customer.fullName}` }).click();
  await expect(
    staff.getByRole("heading", { level: 1, name: `Membership: ${customer.fullName}` }),
  ).toBeVisible();
  await staff
    .getByLabel("Plan")
    .selectOption({ label: options.plan ?? "Complete Home Care ($295/month)" });
  await staff.getByLabel("Billing").selectOption(options.billing ?? "monthly");
  if (options.startDate) await staff.getByLabel("Start date").fill(options.startDate);
  await staff.getByLabel("First payment (USD)").fill(options.firstPayment ?? "295");
  await staff.getByLabel("Paid by").selectOption("check");
  if (options.reference) await staff.getByLabel("Reference (optional)").fill(options.reference);
  await staff.getByRole("button", { name: "Start Membership" }).click();
  await expect(
    staff
      .getByRole("status")
      .filter({ hasText: "First payment recorded: the membership started." }),
  ).toBeVisible();
}

/** Staff book a member's visit through 'Create New Appointment', choosing the block. */
async function bookVisit(
  staff: Page,
  customer: Customer,
  block: "1 h 45 min" | "3 h 30 min",
  spend: string,
) {
  await staff.goto("/employee?tab=appointments");
  await staff.getByRole("button", { name: "Create Appointment" }).click();
  const dialog = staff.getByRole("dialog");
  await dialog.getByLabel("Find by name, e-mail or phone").fill(customer.email);
  await dialog.getByLabel("Select Customer").selectOption(customer.fullName);
  await expect(dialog.getByLabel("Select Property")).toHaveValue(customer.homeId);
  await dialog.getByLabel("Date", { exact: true }).fill(businessDate(0));
  // Midnight has always passed once clearOfBusinessMidnight has run; 12:15 AM had not between
  // midnight and 12:15 AM, when no warning came.
  await dialog.getByLabel("Start Time").fill("00:00");
  await dialog.getByLabel("Visit block").selectOption({ label: block });
  await expect(dialog.getByLabel("End Time")).toHaveValue(
    block === "1 h 45 min" ? "01:45" : "03:30",
  );
  await expect(dialog.getByTestId("visit-spend")).toHaveText(spend);
  await dialog.getByLabel("Task 1", { exact: true }).fill("Fix the kitchen faucet");
  await dialog.getByRole("button", { name: "Create Appointment" }).click();
  // 12:00 AM today has passed: staff are warned and book it anyway (ADR 050).
  await expect(dialog.getByText("This time has already passed.")).toBeVisible();
  await dialog.getByRole("button", { name: "Book anyway" }).click();
  await expect(dialog).toBeHidden();
}

test.describe("memberships", () => {
  // Two signed-in people and several page loads each: more than the default 45 s on a busy machine.
  test.describe.configure({ timeout: 90_000 });
  test.beforeEach(async () => {
    await clearOfBusinessMidnight();
  });

  test("staff start a membership and record a payment; the member sees the meter", async ({
    page,
    browser,
  }) => {
    const staffAccount = await createEmployee();
    const customer = await uniqueCustomer();
    await signIn(page, staffAccount);
    // The first payment with the start (part of the month), the rest recorded afterwards.
    await startMembership(page, customer, { firstPayment: "100", reference: "1041" });
    await expect(page.getByTestId("hours-meter")).toHaveText(monthlyMeter("3 h 30 min"));
    await expect(page.getByTestId("balance")).toHaveText("$195.00");

    // A refused amount is marked on its field, with its message (ADR 093).
    await page.getByLabel("Amount (USD)").fill("abc");
    await page.getByRole("button", { name: "Record Payment" }).click();
    await expect(page.getByLabel("Amount (USD)")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Amount (USD)")).toHaveAccessibleDescription(
      /^Please enter the amount in dollars/,
    );
    await expect(page.getByLabel("Method")).not.toHaveAttribute("aria-invalid", "true");

    await page.getByLabel("Amount (USD)").fill("195");
    await page.getByLabel("Method").selectOption("check");
    await page.getByRole("textbox", { name: "Reference (optional)" }).fill("1042");
    await page.getByRole("button", { name: "Record Payment" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Payment recorded." })).toBeVisible();
    const statement = page.getByRole("region", { name: "Statement" });
    await expect(
      statement.getByRole("row").filter({ hasText: "Payment by check (1042)" }),
    ).toContainText("-$195.00");
    await expect(
      statement.getByRole("row").filter({ hasText: "Payment by check (1041)" }),
    ).toContainText("-$100.00");
    await expect(page.getByTestId("balance")).toHaveText("$0.00");
    await expectNoAxeViolations(page);

    const member = await pageAs(browser, customer);
    await member.goto("/dashboard?tab=membership");
    await expect(member.getByRole("tab", { name: "Membership" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    await expect(member.getByTestId("hours-meter")).toHaveText(monthlyMeter("3 h 30 min"));
    await expect(member.getByTestId("visits-left-year")).toHaveText("24 of 24");
    await expect(member.getByTestId("visits-left-month")).toHaveText("2 of 2");
    await expect(member.getByRole("region", { name: "Statement" })).toContainText(
      "Complete Home Care, monthly",
    );
    await expectNoAxeViolations(member);
    await member.context().close();
  });

  test("a visit completed after 1 h 30 min of a 1 h 45 min block gives 15 minutes back", async ({
    page,
    browser,
  }) => {
    const customer = await uniqueCustomer();
    await signIn(page, await createEmployee());
    await startMembership(page, customer);
    await bookVisit(page, customer, "1 h 45 min", "Uses 1 h 45 min of 3 h 30 min left");

    const member = await pageAs(browser, customer);
    await member.goto("/dashboard?tab=membership");
    await expect(member.getByTestId("hours-meter")).toHaveText(monthlyMeter("1 h 45 min"));

    await page.goto(`/employee?tab=customers&cq=${encodeURIComponent(customer.email)}`);
    await page.getByRole("link", { name: /manage membership for/ }).click();
    await page.getByLabel(/Time worked on/).selectOption({ label: "1 h 30 min" });
    // Finishing asks, per task, 'Done' or 'Not done' (ADR 046).
    await page
      .getByRole("group", { name: "Fix the kitchen faucet" })
      .getByLabel("Done", { exact: true })
      .check();
    await page.getByRole("button", { name: "Complete Visit" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Visit completed." })).toBeVisible();
    await expect(page.getByRole("cell", { name: "Completed", exact: true })).toBeVisible();
    await expect(page.getByText("Done: Fix the kitchen faucet")).toBeVisible();
    // 'Correct time worked' adds an entry with its reason: 1 h 15 min gives 15 more minutes back.
    await page.getByLabel("Corrected time worked").selectOption({ label: "1 h 15 min" });
    // A reason of blanks is refused and marked on its field (ADR 098).
    await page.getByLabel("Reason").fill("   ");
    await page.getByRole("button", { name: "Correct time worked" }).click();
    await expect(page.getByLabel("Reason")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Reason")).toHaveAccessibleDescription(
      "Please give the reason for the correction",
    );
    await page.getByLabel("Corrected time worked").selectOption({ label: "1 h 15 min" });
    await page.getByLabel("Reason").fill("Left early for another call");
    await page.getByRole("button", { name: "Correct time worked" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Time worked corrected." }),
    ).toBeVisible();

    // Completed is final: the visit page offers no change, and a forged cancel is refused.
    const [visit] = await e2eDb()
      .select({ id: appointments.id, status: appointments.status })
      .from(appointments)
      .where(eq(appointments.customerId, customer.id));
    expect(visit.status).toBe("completed");
    await page.goto(`/dashboard/visits/${visit.id}`);
    await expect(
      page.getByText("This visit is completed. A completed visit cannot be moved or canceled."),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Cancel Visit" })).toHaveCount(0);
    const forged = await page.request.post(`/dashboard/visits/${visit.id}`, {
      form: { intent: "cancel" },
      headers: { origin: BASE_URL },
    });
    expect(forged.status()).toBe(409);
    expect(await forged.text()).toContain("This visit is completed and cannot be canceled.");

    await member.reload();
    await expect(member.getByTestId("hours-meter")).toHaveText(monthlyMeter("2 h 15 min"));
    await expect(
      member
        .getByRole("region", { name: "Statement" })
        .getByRole("row")
        .filter({ hasText: "15 min back" }),
    ).toContainText("+15 min");
    await member.context().close();
  });

  test("a $140 part waits for approval; two bought parts on one visit carry one $10 fee", async ({
    page,
    browser,
  }) => {
    const customer = await uniqueCustomer();
    await signIn(page, await createEmployee());
    await startMembership(page, customer);
    await bookVisit(page, customer, "1 h 45 min", "Uses 1 h 45 min of 3 h 30 min left");
    await page.goto(`/employee?tab=customers&cq=${encodeURIComponent(customer.email)}`);
    await page.getByRole("link", { name: /manage membership for/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: /^Membership:/ })).toBeVisible();
    const membershipUrl = page.url();

    await page.getByLabel("Part description").fill("Water heater valve");
    await page.getByLabel("Cost (USD)").fill("140");
    await page.getByRole("button", { name: "Add Part" }).click();
    await expect(page.getByText("Part added. It waits for the member's approval.")).toBeVisible();
    await expect(page.getByRole("button", { name: /Mark Bought/ })).toHaveCount(0);

    const member = await pageAs(browser, customer);
    await member.goto("/dashboard?tab=membership");
    await member.getByRole("button", { name: "Approve Water heater valve ($140.00)" }).click();
    await expect(member.getByText("Part approved. We will buy it for your visit.")).toBeVisible();

    await page.goto(membershipUrl);
    await page.getByLabel("Part description").fill("Washers");
    await page.getByLabel("Cost (USD)").fill("3.50");
    await page.getByRole("button", { name: "Add Part" }).click();
    await expect(page.getByText("Part added.", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Mark Bought: Water heater valve" }).click();
    await expect(page.getByText("Part marked bought.")).toBeVisible();
    await page.getByRole("button", { name: "Mark Bought: Washers" }).click();
    await expect(page.getByRole("button", { name: /Mark Bought/ })).toHaveCount(0);

    await member.reload();
    const statement = member.getByRole("region", { name: "Statement" });
    await expect(
      statement.getByRole("row").filter({ hasText: "Part: Water heater valve" }),
    ).toContainText("$140.00");
    await expect(statement.getByRole("row").filter({ hasText: "Part: Washers" })).toContainText(
      "$3.50",
    );
    const fees = statement.getByRole("row").filter({ hasText: "Shopping fee" });
    await expect(fees).toHaveCount(1);
    await expect(fees).toContainText("$10.00");

    // A wrong part removed by the office: its charge reversed by an entry of its own.
    await page.getByRole("button", { name: "Remove part: Washers" }).click();
    await expect(
      page.getByText("Part removed: its charge is reversed on the statement."),
    ).toBeVisible();
    await member.reload();
    await expect(
      statement.getByRole("row").filter({ hasText: "Part removed: Washers" }),
    ).toContainText("$3.50");
    await member.context().close();
  });

  test("the member cancels; the dialog's refund is the ledger's refund entry", async ({
    browser,
  }) => {
    const customer = await uniqueCustomer();
    // Past the 60-day guarantee: unused hours are refunded at the hourly rate. Started as staff
    // start one, its three months' charges not yet paid.
    await createMembership(e2eDb(), customer.id, { startDate: businessDate(-75) });

    const member = await pageAs(browser, customer);
    await member.goto("/dashboard?tab=membership");
    await member.getByRole("link", { name: "Cancel membership" }).click();
    const dialog = member.getByRole("alertdialog");
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Unused hours refunded");
    // Line by line (ADR 058): 10 h 30 min unused at $84.29/h, the three months' charges unpaid.
    const lines = await settlementOf(member, "cancel-settlement");
    expect(lines[0]).toBe("Unused hours: $885.00");
    expect(lines.filter((l) => /^Unpaid \w+ charge: -\$295\.00$/.test(l))).toHaveLength(3);
    expect(lines.at(-1)).toBe("Nothing is owed either way.");
    await expectNoAxeViolations(member);
    await dialog.getByRole("button", { name: "Confirm cancellation" }).click();
    await expect(member.getByText("Your membership is canceled.")).toBeVisible();
    // The canceled membership shows what was settled, the same lines, not an hours meter (the
    // answer and the page's data drawn again arrive together; wait for the lines, then read them).
    await expect(member.getByTestId("settled-line")).toHaveCount(lines.length - 1);
    expect(await settlementOf(member, "settled")).toEqual(lines);
    await expect(member.getByTestId("hours-meter")).toHaveCount(0);
    const refundRow = member
      .getByRole("region", { name: "Statement" })
      .getByRole("row")
      .filter({ hasText: "Refund:" });
    await expect(refundRow.locator('[data-cell="amount"]')).toHaveText("-$885.00");
    await expect(member.getByRole("link", { name: "Book a free walk-thru" })).toHaveAttribute(
      "href",
      "/dashboard/walk-thru",
    );
    await member.context().close();
  });

  test("a member cannot read another member's statement by URL", async ({ page, browser }) => {
    const first = await uniqueCustomer();
    const second = await uniqueCustomer();
    await signIn(page, await createEmployee());
    await startMembership(page, first);
    const firstStatement = await page
      .getByRole("link", { name: "Download statement (CSV)" })
      .getAttribute("href");
    await startMembership(page, second);
    const secondStatement = await page
      .getByRole("link", { name: "Download statement (CSV)" })
      .getAttribute("href");
    expect(firstStatement).not.toEqual(secondStatement);

    const member = await pageAs(browser, first);
    const own = await member.request.get(firstStatement!);
    expect(own.status()).toBe(200);
    expect(await own.text()).toContain("Membership charge");
    const other = await member.request.get(secondStatement!);
    expect(other.status()).toBe(404);
    expect(await other.text()).not.toContain("Membership charge");
    const refused = await member.request.get(`/employee/customers/${second.id}/membership`, {
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(302);
    expect(refused.headers().location).toBe("/dashboard?denied=employee");
    await member.context().close();
  });

  test("a long statement is read a page at a time, newest first", async ({ page }) => {
    const member = await uniqueCustomer();
    const m = await createMembership(e2eDb(), member.id, {
      billing: "monthly",
      startDate: businessDate(-1),
    });
    for (let i = 1; i <= 60; i++) {
      await recordPayment(
        { membershipId: m.id, amountCents: 100 * i, method: "check", reference: `Check ${i}` },
        null,
        e2eDb(),
      );
    }
    await signIn(page, member);
    await page.goto("/dashboard?tab=membership");
    const statement = page.getByRole("region", { name: "Statement" });
    const pager = page.getByRole("navigation", { name: "Statement pages" });
    // 60 payments, the month's charge and its hours: 62 entries, 50 on the first page.
    await expect(pager).toContainText("Page 1 of 2 (62 entries)");
    await expect(statement.getByRole("row").filter({ hasText: "(Check 60)" })).toBeVisible();
    await expect(statement.getByRole("row").filter({ hasText: "(Check 5)" })).toBeHidden();
    await pager.getByRole("link", { name: "Older entries" }).click();
    await expect(pager).toContainText("Page 2 of 2 (62 entries)");
    await expect(page).toHaveURL(/spage=2/);
    await expect(statement.getByRole("row").filter({ hasText: "(Check 1)" })).toBeVisible();
    await expect(statement.getByRole("row").filter({ hasText: "(Check 60)" })).toBeHidden();
    await pager.getByRole("link", { name: "Newer entries" }).click();
    await expect(pager).toContainText("Page 1 of 2 (62 entries)");
  });

  test("a customer without a membership sees the plans and the free walk-thru @phone", async ({
    page,
  }) => {
    const customer = await uniqueCustomer();
    await signIn(page, customer);
    await page.goto("/dashboard");
    const tab = page.getByRole("tab", { name: /Plan|Membership/ });
    await tab.click();
    await expect(page.getByText("Complete Home Care")).toBeVisible();
    await expect(page.getByRole("link", { name: "Book a free walk-thru" })).toHaveAttribute(
      "href",
      "/dashboard/walk-thru",
    );
    await expectNoAxeViolations(page);
  });
});

test.describe("memberships without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an extra visit's confirmation says its $150", async ({ page }) => {
    const customer = await uniqueCustomer();
    await createMembership(e2eDb(), customer.id, { startDate: businessDate(-5) });
    const { appointment } = await createMemberVisit(
      e2eDb(),
      { id: customer.homeId, customerId: customer.id },
      {
        scheduledDate: businessDate(10),
        startTime: "09:00",
        endTime: "10:45",
        tasks: ["Faucet"],
        asExtra: true,
      },
    );
    await signIn(page, customer);
    await page.goto(`/dashboard/visits/${appointment.id}?booked=1`);
    await expect(page.getByText("Your visit is booked!")).toBeVisible();
    await expect(page.getByTestId("extra-visit-charge")).toContainText(
      "Extra visit: $150, charged to your membership.",
    );
  });

  test("the member approves a part and cancels with plain forms", async ({ page }) => {
    const customer = await uniqueCustomer();
    await createMembership(e2eDb(), customer.id, { startDate: businessDate(-5) });
    const { appointment } = await createMemberVisit(
      e2eDb(),
      { id: customer.homeId, customerId: customer.id },
      { scheduledDate: businessDate(10), startTime: "09:00", endTime: "10:45", tasks: ["Faucet"] },
    );
    await addPart(
      { appointmentId: appointment.id, description: "Sump pump float", costCents: 12_500 },
      null,
      e2eDb(),
      false,
    );
    await signIn(page, customer);
    await page.goto("/dashboard?tab=membership");
    await expect(page.getByTestId("hours-meter")).toHaveText(
      monthlyMeter("1 h 45 min", businessDate(-5)),
    );
    const partId = await page
      .getByRole("article", { name: "Part: Sump pump float ($125.00)" })
      .locator('input[name="partId"]')
      .inputValue();
    await page.getByRole("button", { name: "Approve Sump pump float ($125.00)" }).click();
    // The page that shows the tab answers the plain form post: no code in the address.
    await expect(page).toHaveURL(/\/dashboard\?tab=membership$/);
    await expect(page.getByText("Part approved. We will buy it for your visit.")).toBeVisible();
    // Declining it afterwards: refused in plain words, the part stays approved.
    const again = await page.request.post("/dashboard?tab=membership", {
      form: { intent: "decline-part", partId },
      headers: { accept: "text/html", origin: new URL(page.url()).origin },
    });
    expect(again.status()).toBe(409);
    expect(await again.text()).toContain("This part is not waiting for your approval.");

    await page.getByRole("link", { name: "Cancel membership" }).click();
    const confirm = page.getByRole("region", { name: "Cancel membership" });
    // Within the guarantee: the month's charge comes back in full; the visit is canceled too.
    const lines = await settlementOf(page, "cancel-settlement");
    expect(lines[0]).toBe("60-day guarantee, membership charges refunded: $295.00");
    expect(lines.at(-1)).toBe("Nothing is owed either way.");
    await expect(confirm).toContainText("1 upcoming visit is canceled");
    await confirm.getByRole("button", { name: "Confirm cancellation" }).click();
    await expect(page.getByText("Your membership is canceled.")).toBeVisible();
    expect(await settlementOf(page, "settled")).toEqual(lines);
    await expect(
      page
        .getByRole("region", { name: "Statement" })
        .getByRole("row")
        .filter({ hasText: "Refund:" }),
    ).toContainText("-$295.00");
  });
});
