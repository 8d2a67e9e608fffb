import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { appointments, profiles, serviceRequests } from "~/db/schema";
import {
  addDays,
  businessToday,
  businessWallClock,
  closedDays,
  dayLabel,
  defaultClosedDays,
  isBusinessDay,
  timeOfDay,
  addMonths,
  plainDate,
} from "~/lib/business-calendar";
import {
  createAppointment,
  createMembership,
  createServiceRequest,
} from "../../server/seed/factories";
import { BASE_URL } from "../support/ports";
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
import { uniqueWord } from "./employee-support";

/*
 * Members book their own visits (ADR 017): the Schedule tab, availability, .ics updates and the
 * 24-hour rule. Each test makes its own handyman, the member's dedicated one.
 */

async function memberWithHandyman() {
  const lastName = uniqueWord("Handy");
  const handyman = await createEmployee({ firstName: "Devon", lastName });
  const member = await createCustomer({ lastName: uniqueWord("Member") });
  // Complete, paid for the year: 42 h in the bank.
  await createMembership(e2eDb(), member.id, {
    plan: "complete",
    billing: "annual",
    startDate: businessToday(),
  });
  const home = { id: member.homeId!, customerId: member.id };
  // Devon is the member's dedicated handyman (ADR 088), and did her last visit.
  await e2eDb()
    .update(profiles)
    .set({ dedicatedHandymanId: handyman.id })
    .where(eq(profiles.userId, member.id));
  await createAppointment(e2eDb(), home, {
    scheduledDate: "2026-01-06",
    startTime: "09:00",
    endTime: "10:45",
    assignedEmployeeId: handyman.id,
    tasks: ["First look around"],
  });
  const tasks = [];
  for (const title of ["Fix the porch step", "Hang the hallway mirror", "Seal the tub"]) {
    tasks.push(await createServiceRequest(e2eDb(), home, { title, priority: "next" }));
  }
  return { handyman, handymanName: `Devon ${lastName}`, member, home, tasks };
}

/** The meter of a Complete annual membership started today (ADR 057). */
function annualMeter(left: string) {
  const today = businessToday();
  return `42 h paid, ${left} left now; 42 h more on ${plainDate(addMonths(today, 12), { today: today })}`;
}

function calendarOf(raw: string) {
  const part = raw.split(/\r?\n--/).find((p) => /filename=appointment-.*\.ics/.test(p));
  if (!part) throw new Error("no .ics part");
  const [headers, ...body] = part.split(/\r?\n\r?\n/);
  const content = body.join("\n\n");
  if (/Content-Transfer-Encoding:\s*base64/i.test(headers))
    return Buffer.from(content.replace(/\s+/g, ""), "base64").toString("utf8");
  if (/Content-Transfer-Encoding:\s*quoted-printable/i.test(headers))
    return content
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return content;
}

/**
 * Books an offered day (the first, or the one at `dayIndex`) and its first time (the dedicated
 * handyman's) through the steps.
 */
async function bookThroughSteps(
  page: Page,
  block: "1 h 45 min" | "3 h 30 min",
  taskTitles: string[],
  dayIndex = 0,
) {
  await page.goto("/dashboard?tab=schedule");
  await page.getByRole("link", { name: "Book a Visit" }).click();
  await page.getByRole("radio", { name: block }).check();
  await page.getByRole("button", { name: "Next" }).click();
  const day = page
    .getByRole("group", { name: "Days with a free time" })
    .getByRole("radio")
    .nth(dayIndex);
  const dayLabel = (await day.locator("xpath=..").innerText()).trim();
  await day.check();
  await page.getByRole("button", { name: "Next" }).click();
  // The first start with her own handyman: another handyman's hours (other tests' data) may
  // offer an earlier start where hers is busy ('6:00 AM your handyman is busy; Sam is free').
  const start = page
    .getByRole("group", { name: "Start times" })
    .getByRole("radio", { name: /^(?!.*your handyman is busy)/ })
    .first();
  const startLabel = (await start.locator("xpath=..").innerText()).trim();
  await start.check();
  await page.getByRole("button", { name: "Next" }).click();
  for (const title of taskTitles) await page.getByRole("checkbox", { name: title }).check();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText(`Uses ${block}`)).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Confirm Visit" }).click();
  await expect(page.getByText("Your visit is booked!")).toBeVisible();
  return { dayLabel, startLabel };
}

test.describe("members book their own visits", () => {
  test("a member books a 3 h 30 min visit with two tasks; staff see it in the week view; another member cannot take the same handyman then @phone", async ({
    page,
    browser,
  }) => {
    const a = await memberWithHandyman();
    await signIn(page, a.member);
    // The second offered day: the first may be tomorrow with only its afternoon left, which
    // this visit would fill, and the handyman must still have other times that day.
    const { dayLabel, startLabel } = await bookThroughSteps(
      page,
      "3 h 30 min",
      ["Fix the porch step", "Hang the hallway mirror"],
      1,
    );
    expect(startLabel).toContain(`with ${a.handymanName}`);
    const [visit] = (
      await e2eDb().select().from(appointments).where(eq(appointments.customerId, a.member.id))
    ).filter((v) => v.scheduledDate !== "2026-01-06");
    expect(visit.assignedEmployeeId).toBe(a.handyman.id);
    const requests = await e2eDb()
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.customerId, a.member.id));
    expect(
      requests
        .filter((r) => r.status === "scheduled")
        .map((r) => r.title)
        .sort(),
    ).toEqual(["Fix the porch step", "Hang the hallway mirror"]);

    // On the Appointments tab, with both tasks and the hours meter lowered by the block.
    await page.goto("/dashboard?tab=appointments");
    await expect(page.getByText("Fix the porch step").first()).toBeVisible();
    await expect(page.getByText("Hang the hallway mirror").first()).toBeVisible();
    await expect(page.getByTestId("appointments-hours-meter")).toHaveText(
      annualMeter("38 h 30 min"),
    );
    const mail = await sink.waitForMail(a.member.email, /Your visit is booked/);
    expect(calendarOf(mail.raw)).toContain("METHOD:REQUEST");

    // A second member whose dedicated handyman is the same cannot get that slot with them.
    const b = await createCustomer({ lastName: uniqueWord("Member") });
    await createMembership(e2eDb(), b.id, { billing: "annual", startDate: businessToday() });
    await createAppointment(
      e2eDb(),
      { id: b.homeId!, customerId: b.id },
      {
        scheduledDate: "2026-01-07",
        startTime: "09:00",
        endTime: "10:45",
        assignedEmployeeId: a.handyman.id,
        tasks: ["Look around"],
      },
    );
    const bTask = await createServiceRequest(
      e2eDb(),
      { id: b.homeId!, customerId: b.id },
      {
        title: "Patch the drywall",
        priority: "next",
      },
    );
    const other = await browser.newContext({ baseURL: BASE_URL });
    const bPage = await other.newPage();
    await signIn(bPage, b);
    const startMinute =
      Number(visit.startTime.slice(0, 2)) * 60 + Number(visit.startTime.slice(3, 5));
    await bPage.goto(`/dashboard/book?block=210&date=${visit.scheduledDate}`);
    await expect(bPage.getByRole("heading", { name: "Choose a start time" })).toBeVisible();
    await expect(
      bPage.getByRole("radio", { name: new RegExp(`with ${a.handymanName}`) }).first(),
    ).toBeVisible();
    const time = startLabel.split(" with ")[0];
    await expect(bPage.getByRole("radio", { name: `${time} with ${a.handymanName}` })).toHaveCount(
      0,
    );
    // Posting it anyway is refused by the server.
    const form = new URLSearchParams({
      block: "210",
      date: visit.scheduledDate,
      start: `${startMinute}|${a.handyman.id}`,
      task: bTask.id,
    });
    const refused = await bPage.request.post("/dashboard/book", {
      data: form.toString(),
      headers: { origin: BASE_URL, "content-type": "application/x-www-form-urlencoded" },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(409);
    await other.close();

    // Staff see the visit in the handyman's week view.
    const staffContext = await browser.newContext({ baseURL: BASE_URL });
    const staffPage = await staffContext.newPage();
    await signIn(staffPage, a.handyman);
    await staffPage.goto(
      `/employee/schedule?employee=${a.handyman.id}&week=${visit.scheduledDate}`,
    );
    const column = staffPage.getByRole("listitem", { name: dayLabel });
    await expect(column.getByRole("link", { name: new RegExp(time) })).toBeVisible();
    await expectNoAxeViolations(staffPage);
    await staffContext.close();
  });

  test("a member moves a visit (same UID, higher SEQUENCE) and cancels it (tasks come back)", async ({
    page,
  }) => {
    const a = await memberWithHandyman();
    await signIn(page, a.member);
    // The third offered day: at least a day away at any hour, so the member may still move it.
    await bookThroughSteps(page, "1 h 45 min", ["Seal the tub"], 2);
    const booked = calendarOf((await sink.waitForMail(a.member.email, /Your visit is booked/)).raw);
    const uid = /UID:(.+)/.exec(booked)![1].trim();
    expect(booked).toContain("SEQUENCE:0");
    await page.goto("/dashboard?tab=schedule");
    await expect(page.getByTestId("schedule-hours-meter")).toHaveText(annualMeter("40 h 15 min"));
    await page.getByRole("link", { name: /^Move or cancel the visit on / }).click();

    await page.getByRole("button", { name: "Move Visit" }).click();
    await page.getByRole("button", { name: "Next" }).click();
    const starts = page.getByRole("radio");
    await starts.last().check();
    await page.getByRole("button", { name: "Confirm New Time" }).click();
    await expect(page.getByText("Your visit has moved.")).toBeVisible();
    const moved = calendarOf((await sink.waitForMail(a.member.email, /Your visit has moved/)).raw);
    expect(moved).toContain(`UID:${uid}`);
    expect(moved).toContain("SEQUENCE:1");

    await page.getByRole("button", { name: "Cancel Visit" }).click();
    await expect(page.getByText("Cancel this visit?")).toBeVisible();
    await page.getByRole("button", { name: "Yes, cancel the visit" }).click();
    await expect(page.getByText("Your visit is canceled.")).toBeVisible();
    const canceled = calendarOf(
      (await sink.waitForMail(a.member.email, /Your visit is canceled/)).raw,
    );
    expect(canceled).toContain("METHOD:CANCEL");
    expect(canceled).toContain(`UID:${uid}`);
    expect(canceled).toContain("SEQUENCE:2");
    const [tub] = await e2eDb()
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.id, a.tasks[2].id));
    expect(tub.status).toBe("reviewed");
    // The block is back in the bank.
    await page.getByRole("link", { name: "Back to the dashboard" }).click();
    await expect(page.getByTestId("schedule-hours-meter")).toHaveText(annualMeter("42 h"));
  });

  test("a customer without a membership is sent to the plans, and the server refuses a booking", async ({
    page,
  }) => {
    const customer = await createCustomer({ lastName: uniqueWord("Guest") });
    const task = await createServiceRequest(
      e2eDb(),
      { id: customer.homeId!, customerId: customer.id },
      { title: "Fix the gate latch", priority: "next" },
    );
    await signIn(page, customer);
    await page.goto("/dashboard?tab=schedule");
    await expect(page.getByRole("link", { name: "Book a Visit" })).toHaveCount(0);
    await page.getByRole("link", { name: "See the plans" }).click();
    await expect(page).toHaveURL(/tab=membership/);
    await page.goto("/dashboard/book?block=105");
    await expect(
      page.getByText(
        "Booking visits is part of a membership. See the plans on the Membership tab.",
      ),
    ).toBeVisible();
    const day = addDays(businessToday(), 7);
    const refused = await page.request.post("/dashboard/book", {
      form: { block: "105", date: day, start: "540", task: task.id },
      headers: { origin: BASE_URL },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(403);
    const visits = await e2eDb()
      .select()
      .from(appointments)
      .where(eq(appointments.customerId, customer.id));
    expect(visits).toHaveLength(0);
  });

  test("a visit 20 hours away cannot be canceled by the member: 'Call us'", async ({ page }) => {
    const a = await memberWithHandyman();
    const start = businessWallClock(new Date(Date.now() + 20 * 60 * 60_000));
    const soon = await createAppointment(e2eDb(), a.home, {
      scheduledDate: start.date,
      startTime: timeOfDay(start.minute),
      endTime: timeOfDay(Math.min(start.minute + 60, 1439)),
      tasks: ["Soon"],
    });
    await signIn(page, a.member);
    await page.goto(`/dashboard/visits/${soon.id}`);
    await expect(page.getByRole("main").getByRole("link", { name: /Call us/ })).toHaveAttribute(
      "href",
      /^tel:\+1/,
    );
    await expect(page.getByRole("button", { name: "Cancel Visit" })).toHaveCount(0);
    const refused = await page.request.post(`/dashboard/visits/${soon.id}`, {
      form: { intent: "cancel" },
      headers: { origin: BASE_URL },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(409);
    const [row] = await e2eDb().select().from(appointments).where(eq(appointments.id, soon.id));
    expect(row.status).toBe("booked");
  });

  test("Thanksgiving and the day after offer nothing, for visits and intro calls", async ({
    page,
  }) => {
    const today = businessToday();
    const year = Number(today.slice(0, 4));
    const closed = new Set(
      [year, year + 1].flatMap((y) => defaultClosedDays(y).map((d) => d.date)),
    );
    // The next Thanksgiving from today (the real clock's).
    const thanksgiving = [year, year + 1]
      .flatMap((y) => defaultClosedDays(y))
      .find((d) => d.name === "Thanksgiving Day" && d.date > today)!.date;
    const slots = (await (await page.request.get("/book-call/slots")).json()) as {
      days: { date: string }[];
    };
    expect(slots.days.length).toBeGreaterThan(0);
    for (const day of slots.days) expect(closed.has(day.date), day.date).toBe(false);

    const a = await memberWithHandyman();
    await signIn(page, a.member);
    await page.goto("/dashboard/book?block=105");
    const days = await page
      .getByRole("group", { name: "Days with a free time" })
      .getByRole("radio")
      .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    expect(days.length).toBeGreaterThan(0);
    for (const date of days) expect(closed.has(date), date).toBe(false);
    // Asked for Thanksgiving by URL, there is no time to choose.
    await page.goto(`/dashboard/book?block=105&date=${thanksgiving}`);
    await expect(page.getByText("That day has no free time left.")).toBeVisible();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a member books a visit with plain forms, step by step", async ({ page }) => {
    const a = await memberWithHandyman();
    await signIn(page, a.member);
    await page.goto("/dashboard/book");
    await page.getByRole("radio", { name: "1 h 45 min" }).check();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("checkbox", { name: "Seal the tub" }).check();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Confirm Visit" }).click();
    await expect(page.getByText("Your visit is booked!")).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: "Seal the tub" })).toBeVisible();
  });

  test("a member moves and cancels a visit with plain forms: each answer shows on the visit's page", async ({
    page,
  }) => {
    const a = await memberWithHandyman();
    await signIn(page, a.member);
    // The third offered day: at least a day away, so the member may still move it.
    await page.goto("/dashboard/book");
    await page.getByRole("radio", { name: "1 h 45 min" }).check();
    await page.getByRole("button", { name: "Next" }).click();
    await page
      .getByRole("group", { name: "Days with a free time" })
      .getByRole("radio")
      .nth(2)
      .check();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("checkbox", { name: "Seal the tub" }).check();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Confirm Visit" }).click();
    await expect(page.getByText("Your visit is booked!")).toBeVisible();
    await page.getByRole("button", { name: "Move Visit" }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("radio").last().check();
    await page.getByRole("button", { name: "Confirm New Time" }).click();
    await expect(page.getByRole("status")).toHaveText(
      "Your visit has moved. The e-mail's calendar file updates your calendar.",
    );
    // The time picker the form was on is closed: 'Move Visit' starts again.
    await expect(page.getByRole("button", { name: "Confirm New Time" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Move Visit" })).toBeVisible();
    await page.getByRole("button", { name: "Cancel Visit" }).click();
    await page.getByRole("button", { name: "Yes, cancel the visit" }).click();
    await expect(page.getByRole("status")).toHaveText(
      "Your visit is canceled. Its hours are back in your bank.",
    );
    await expect(page.getByText("This visit is canceled.")).toBeVisible();
  });
});

test.describe("staff keep availability", () => {
  test("time off and a closed day take the handyman and the day out of what members are offered", async ({
    page,
    browser,
  }) => {
    const a = await memberWithHandyman();
    // Two business days about three weeks ahead (inside the member's window, past the
    // intro calls' two weeks, so other tests' intro-call slots are untouched).
    const closedByDefault = closedDays();
    let day = addDays(businessToday(), 18);
    while (!isBusinessDay(day, closedByDefault)) day = addDays(day, 1);
    let next = addDays(day, 1);
    while (!isBusinessDay(next, closedByDefault)) next = addDays(next, 1);

    await signIn(page, a.handyman);
    await page.goto("/employee/availability");
    await page.getByLabel("First day").fill(day);
    await page.getByRole("button", { name: "Add Time Off" }).click();
    await expect(page.getByText("Time off added.")).toBeVisible();
    await expectNoAxeViolations(page);
    await page.goto(`/employee/schedule?employee=${a.handyman.id}&week=${day}`);
    await expect(page.getByRole("listitem", { name: dayLabel(day) })).toContainText("Time off");

    const memberContext = await browser.newContext({ baseURL: BASE_URL });
    const memberPage = await memberContext.newPage();
    await signIn(memberPage, a.member);
    await memberPage.goto(`/dashboard/book?block=105&date=${day}`);
    await expect(memberPage.getByRole("heading", { name: "Choose a start time" })).toBeVisible();
    await expect(
      memberPage.getByRole("radio", { name: new RegExp(`with ${a.handymanName}`) }),
    ).toHaveCount(0);

    // A closed day: nobody is offered at all, then it opens again.
    await page.goto("/employee/availability");
    await page.getByLabel("Date").fill(next);
    await page.getByLabel("Reason").fill("Team training");
    await page.getByRole("button", { name: "Close This Day" }).click();
    await expect(page.getByText("Closed day saved.")).toBeVisible();
    try {
      await memberPage.goto("/dashboard/book?block=105");
      const offered = await memberPage
        .getByRole("group", { name: "Days with a free time" })
        .getByRole("radio")
        .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
      expect(offered).not.toContain(next);
    } finally {
      // The button says what it does: 'Reopen November 27' (with the year when not this one).
      const monthDay = new Intl.DateTimeFormat("en-US", {
        timeZone: "UTC",
        month: "long",
        day: "numeric",
      }).format(new Date(`${next}T12:00:00Z`));
      const sameYear = next.slice(0, 4) === businessToday().slice(0, 4);
      const label = `Reopen ${monthDay}${sameYear ? "" : `, ${next.slice(0, 4)}`}`;
      await page.getByRole("button", { name: label, exact: true }).click();
      await expect(page.getByText("The day is open again.")).toBeVisible();
    }
    await memberContext.close();
  });
});
