import { eq } from "drizzle-orm";
import { leads } from "~/db/schema";
import {
  createAppointment,
  createMembership,
  createMemberVisit,
  createServiceRequest,
  createUser,
} from "../../server/seed/factories";
import { businessToday } from "~/lib/business-calendar";
import { completePropertySetup, fillSignUp } from "./auth-helpers";
import {
  createCustomer,
  createEmployee,
  e2eDb,
  expect,
  expectNoAxeViolations,
  PASSWORD,
  sink,
  signIn,
  test,
  uniqueEmail,
} from "./fixtures";
import { appointmentCard, businessDate, uniqueWord } from "./employee-support";

/*
 * Issue 40 at phone width: only what can be booked is offered (item 3): a task already on an
 * upcoming visit is shown with that visit's day and cannot be chosen, in the member's booking
 * and in staff's Create Appointment; a walk-thru offers only its handyman's free times and
 * belongs to the person once she has an account (item 4).
 */

test.use({ viewport: { width: 390, height: 844 } });

/** The first Monday-to-Friday day at least `from` days ahead. */
function weekdayFrom(from: number) {
  for (let d = from; ; d++) {
    const day = businessDate(d);
    const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
    if (weekday >= 1 && weekday <= 5) return day;
  }
}

function monthDay(day: string) {
  return new Intl.DateTimeFormat("en-US", {
    timeZone: "UTC",
    month: "long",
    day: "numeric",
  }).format(new Date(`${day}T12:00:00Z`));
}

test("a task on another upcoming visit is shown with its day, not offered, to the member and to staff @phone", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const handyman = await createEmployee({ firstName: "Devon", lastName: uniqueWord("Handy") });
  const member = await createCustomer({ lastName: uniqueWord("Booker") });
  const today = businessToday();
  await createMembership(e2eDb(), member.id, {
    plan: "complete",
    billing: "annual",
    startDate: today,
  });
  const home = { id: member.homeId!, customerId: member.id };
  const porch = await createServiceRequest(e2eDb(), home, {
    title: "Fix the porch step",
    priority: "next",
  });
  await createServiceRequest(e2eDb(), home, { title: "Seal the tub", priority: "next" });
  const visitDay = weekdayFrom(8);
  await createMemberVisit(e2eDb(), home, {
    today,
    scheduledDate: visitDay,
    startTime: "13:00",
    endTime: "14:45",
    assignedEmployeeId: handyman.id,
    tasks: [{ description: porch.title, requestId: porch.id }],
  });
  const onVisit = `on your visit of ${monthDay(visitDay)}`;

  // The member's booking: the porch step is shown with its visit's day, and disabled.
  await signIn(page, member);
  await page.goto("/dashboard/book");
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
  const taken = page.getByRole("checkbox", { name: `Fix the porch step (${onVisit})` });
  await expect(taken).toBeDisabled();
  await expect(page.getByRole("checkbox", { name: "Seal the tub" })).toBeEnabled();
  await expectNoAxeViolations(page);

  // Staff's Create Appointment: the same.
  const staffContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const staff = await staffContext.newPage();
  await signIn(staff, await createEmployee());
  await staff.goto("/employee");
  await staff.getByRole("button", { name: "Create Appointment" }).click();
  const dialog = staff.getByRole("dialog", { name: "Create New Appointment" });
  await dialog
    .getByLabel("Find by name, e-mail or phone")
    .fill(`${member.firstName} ${member.lastName}`);
  await dialog.getByLabel("Customer").selectOption(`${member.firstName} ${member.lastName}`);
  const existing = dialog.getByRole("group", { name: "Add Existing Customer Tasks" });
  const porchBox = existing.getByRole("checkbox", { name: "Fix the porch step" });
  await expect(porchBox).toBeDisabled();
  await expect(porchBox).toHaveAccessibleDescription(onVisit);
  await expect(existing.getByRole("checkbox", { name: "Seal the tub" })).toBeEnabled();
  await staffContext.close();
});

test("a walk-thru offers only the handyman's free times and is hers once she signs up @phone", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const wendyLast = uniqueWord("Walk");
  const wendy = await createUser(e2eDb(), {
    email: uniqueEmail("wendy"),
    password: PASSWORD,
    firstName: "Wendy",
    lastName: wendyLast,
    isEmployee: true,
    staffRole: "handyman",
  });
  // Wendy is busy from 9:00 to 10:45 on the day.
  const day = weekdayFrom(6);
  const busyFor = await createCustomer({ lastName: uniqueWord("Busy") });
  await createAppointment(
    e2eDb(),
    { id: busyFor.homeId!, customerId: busyFor.id },
    {
      scheduledDate: day,
      startTime: "09:00",
      endTime: "10:45",
      assignedEmployeeId: wendy.id,
      tasks: ["Look at the deck"],
    },
  );
  const email = uniqueEmail("priya");
  const last = uniqueWord("Shah");
  const [lead] = await e2eDb()
    .insert(leads)
    .values({ email, name: `Priya ${last}`, source: "home" })
    .returning();

  await signIn(page, await createEmployee());
  await page.goto(`/employee/leads/${lead.id}`);
  await page.getByLabel("Handyman", { exact: true }).selectOption({ label: `Wendy ${wendyLast}` });
  await page.getByLabel("Day").selectOption(day);
  await page.getByRole("button", { name: "Show times" }).click();
  const times = page.getByLabel("Time", { exact: true });
  await expect(page).toHaveURL(new RegExp(`date=${day}`));
  await expect(times).toBeVisible();
  const offered = await times.locator("option").allTextContents();
  for (const busy of ["9:00 AM", "9:30 AM", "10:00 AM", "10:30 AM"])
    expect(offered).not.toContain(busy);
  expect(offered).toContain("11:00 AM");
  await times.selectOption({ label: "11:00 AM" });
  await page.getByLabel("Address", { exact: true }).fill("12 Elm St NE, Atlanta, GA 30305");
  await page.getByRole("button", { name: "Book walk-thru" }).click();
  await expect(page.getByRole("status")).toContainText("Walk-thru booked:");
  // On staff's Appointments tab, before she has an account.
  await page.goto("/employee?tab=appointments");
  const card = await appointmentCard(page, `Priya ${last}`);
  await expect(card).toContainText("Free walk-thru");
  await expect(card).toContainText("11:00 AM");

  // She signs up with the same e-mail and confirms it.
  const personContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const person = await personContext.newPage();
  await person.goto("/auth?mode=sign-up");
  await fillSignUp(person, { firstName: "Priya", lastName: last, email, password: PASSWORD });
  await person.getByRole("button", { name: "Create Account" }).click();
  const confirm = await sink.waitForMail(email, /Confirm your/);
  await person.goto(sink.linkIn(confirm, "verify"));
  await completePropertySetup(person);

  await person.goto("/dashboard?tab=appointments");
  const mine = person.getByRole("article").filter({ hasText: "Free walk-thru" });
  await expect(mine).toContainText("11:00 AM");
  await expect(mine).toContainText("12 Elm St NE, Atlanta, GA 30305");
  // Her Plan tab does not offer another while this one is booked.
  await person.goto("/dashboard?tab=membership");
  await expect(person.getByTestId("walk-thru-booked")).toContainText("11:00 AM");
  await expect(person.getByRole("link", { name: "Book a free walk-thru" })).toHaveCount(0);
  await expectNoAxeViolations(person);
  const width = await person.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);

  // Her lead is linked to her account (the walk-thru followed it).
  const [linked] = await e2eDb().select().from(leads).where(eq(leads.id, lead.id));
  expect(linked.customerId).not.toBeNull();
  await personContext.close();
});
