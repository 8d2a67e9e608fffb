import { eq } from "drizzle-orm";
import { closedDays as closedDaysTable, holidayClosings, visitOverrides } from "~/db/schema";
import {
  addDays,
  businessToday,
  closedDays,
  defaultClosedDays,
  isBusinessDay,
} from "~/lib/business-calendar";
import {
  createAppointment,
  createMembership,
  createServiceRequest,
} from "../../server/seed/factories";
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
 * Closures never strand a visit, staff are warned rather than blocked, and booking is finished
 * (issue 26, items 4, 5 and 7; ADR 050).
 */

/** A weekday about 20 months ahead (away from the days other specs book), open by default. */
function farBusinessDay(offset: number) {
  const closed = closedDays([], new Set());
  let day = addDays(businessToday(), 600 + offset);
  while (!isBusinessDay(day, closed)) day = addDays(day, 1);
  return day;
}

test("a closed day over a booked visit lists it, and 'Cancel and tell the members' e-mails the member", async ({
  page,
}) => {
  const day = farBusinessDay(Math.floor(Math.random() * 60));
  const staff = await createEmployee({ firstName: "Olive", lastName: uniqueWord("Office") });
  const member = await createCustomer({ firstName: "Tess", lastName: uniqueWord("Member") });
  await createAppointment(
    e2eDb(),
    { id: member.homeId!, customerId: member.id },
    {
      scheduledDate: day,
      startTime: "09:00",
      endTime: "10:45",
      assignedEmployeeId: staff.id,
      tasks: ["Fix the gate"],
    },
  );
  try {
    await signIn(page, staff);
    await page.goto("/employee/availability");
    await page.getByLabel("Date").fill(day);
    await page.getByLabel("Reason").fill("Team training");
    await page.getByRole("button", { name: "Close This Day" }).click();
    await expect(
      page.getByRole("heading", { name: /visits? (is|are) booked in that time/ }),
    ).toBeVisible();
    await expect(page.getByRole("list", { name: "Visits booked in that time" })).toContainText(
      member.lastName,
    );
    await expect(page.getByText("Closed day saved.")).toHaveCount(0);
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Cancel and tell the members" }).click();
    await expect(page.getByRole("status")).toContainText("Closed day saved.");
    await expect(page.getByRole("status")).toContainText("the members were told by e-mail");
    const mail = await sink.waitForMail(member.email, /Your visit is canceled/);
    expect(mail.text).toContain("we had to cancel this visit");
    expect(sink.linkIn(mail, "/dashboard/book")).toContain("/dashboard/book");
  } finally {
    await e2eDb().delete(closedDaysTable).where(eq(closedDaysTable.date, day));
  }
});

test("closing a holiday in the holidays setting over a booked visit lists it first", async ({
  page,
}) => {
  // The next Columbus Day, kept open until now: the owner closes it with a visit booked on it.
  const today = businessToday();
  const year = Number(today.slice(0, 4));
  const columbus = [year, year + 1]
    .map((y) => defaultClosedDays(y).find((h) => h.key === "columbus-day")!.date)
    .find((date) => date > addDays(today, 1))!;
  const staff = await createEmployee({ firstName: "Olive", lastName: uniqueWord("Office") });
  const member = await createCustomer({ firstName: "Hal", lastName: uniqueWord("Member") });
  const before = await e2eDb().select().from(holidayClosings);
  await e2eDb()
    .insert(holidayClosings)
    .values({ holiday: "columbus-day", closed: false })
    .onConflictDoUpdate({ target: holidayClosings.holiday, set: { closed: false } });
  await createAppointment(
    e2eDb(),
    { id: member.homeId!, customerId: member.id },
    {
      scheduledDate: columbus,
      startTime: "09:00",
      endTime: "10:45",
      assignedEmployeeId: staff.id,
      tasks: ["Fix the gate"],
    },
  );
  try {
    await signIn(page, staff);
    await page.goto("/employee/availability");
    await page.getByRole("checkbox", { name: "Columbus Day" }).check();
    await page.getByRole("button", { name: "Save Holidays" }).click();
    await expect(
      page.getByRole("heading", { name: /visits? (is|are) booked in that time/ }),
    ).toBeVisible();
    await expect(page.getByRole("list", { name: "Visits booked in that time" })).toContainText(
      member.lastName,
    );
    await expect(page.getByText("Holidays saved.")).toHaveCount(0);
    await page.getByRole("button", { name: "Cancel and tell the members" }).click();
    await expect(page.getByRole("status")).toContainText("Holidays saved.");
    await expect(page.getByRole("checkbox", { name: "Columbus Day" })).toBeChecked();
    const mail = await sink.waitForMail(member.email, /Your visit is canceled/);
    expect(mail.text).toContain("we are closed on Columbus Day");
  } finally {
    // The setting is the whole business's: put it back as it was.
    await e2eDb().delete(holidayClosings);
    if (before.length) await e2eDb().insert(holidayClosings).values(before);
  }
});

test("'Book anyway' on a holiday books it with the staff member's name on the visit", async ({
  page,
}) => {
  const lastName = uniqueWord("Office");
  const staff = await createEmployee({ firstName: "Olive", lastName });
  const member = await createCustomer({ lastName: uniqueWord("Member") });
  const year = Number(businessToday().slice(0, 4)) + 1;
  const thanksgiving = defaultClosedDays(year).find((h) => h.key === "thanksgiving-day")!.date;
  await signIn(page, staff);
  await page.goto("/employee");
  await page.getByRole("button", { name: "Create Appointment" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Appointment" });
  await dialog.getByLabel("Find by name, e-mail or phone").fill(member.email);
  const fullName = `${member.firstName} ${member.lastName}`;
  await dialog.getByLabel("Select Customer").selectOption({ label: fullName });
  await dialog.getByLabel("Date", { exact: true }).fill(thanksgiving);
  await dialog.getByLabel("Start Time").fill("10:00");
  await dialog.getByLabel("End Time").fill("11:00");
  await dialog.getByLabel("Task 1", { exact: true }).fill("Fix the leak before the guests come");
  await dialog.getByRole("button", { name: "Create Appointment" }).click();
  await expect(dialog.getByText(/is a closed day \(Thanksgiving Day\)/)).toBeVisible();
  await dialog.getByLabel("Why book anyway (optional)").fill("A burst pipe");
  await dialog.getByRole("button", { name: "Book anyway" }).click();
  await expect(page.getByText("Appointment created successfully")).toBeVisible();
  const [override] = await e2eDb()
    .select()
    .from(visitOverrides)
    .where(eq(visitOverrides.staffId, staff.id));
  expect(override).toMatchObject({
    staffName: `Olive ${lastName}`,
    action: "book",
    reason: "A burst pipe",
  });
  await page.goto(`/dashboard/visits/${override.appointmentId}`);
  await expect(page.getByRole("heading", { name: `Visit for ${fullName}` })).toBeVisible();
  await expect(page.getByText(`Booked anyway by Olive ${lastName}`)).toBeVisible();
});

test("the tasks step needs a task before 'Next' and can add one; 'Cancel Visit' asks first @phone", async ({
  page,
}) => {
  const member = await createCustomer({ lastName: uniqueWord("Member") });
  await createEmployee({ firstName: "Devon", lastName: uniqueWord("Handy") });
  await createMembership(e2eDb(), member.id, {
    plan: "complete",
    billing: "annual",
    startDate: businessToday(),
  });
  await createServiceRequest(
    e2eDb(),
    { id: member.homeId!, customerId: member.id },
    { title: "Seal the tub", priority: "next" },
  );
  await signIn(page, member);
  await page.goto("/dashboard/book");
  await page.getByRole("radio", { name: "1 h 45 min" }).check();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("heading", { name: "Choose a day" })).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("heading", { name: "Choose a start time" })).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("heading", { name: "Choose the tasks" })).toBeVisible();
  // No task chosen: the step asks again.
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Please choose at least one task for the visit.",
  );
  await expect(page.getByRole("button", { name: "Confirm Visit" })).toHaveCount(0);
  await page.getByLabel("New task").fill("Oil the squeaky door");
  await page.getByRole("button", { name: "Add a task" }).click();
  await expect(page.getByRole("checkbox", { name: "Oil the squeaky door" })).toBeChecked();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("heading", { name: "Summary" })).toBeVisible();
  await page.getByRole("button", { name: "Confirm Visit" }).click();
  await expect(page.getByText("Your visit is booked!")).toBeVisible();

  await page.getByRole("button", { name: "Cancel Visit" }).click();
  await expect(page.getByText("Cancel this visit?")).toBeVisible();
  await expect(page.getByRole("alertdialog")).toContainText(
    "Its 1 h 45 min go back to your hours bank",
  );
  await page.getByRole("link", { name: "Keep the visit" }).click();
  await expect(page.getByText("Cancel this visit?")).toHaveCount(0);
  await page.getByRole("button", { name: "Cancel Visit" }).click();
  await page.getByRole("button", { name: "Yes, cancel the visit" }).click();
  await expect(page.getByText("Your visit is canceled.")).toBeVisible();
});
