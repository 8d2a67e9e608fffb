import { eq } from "drizzle-orm";
import {
  appointments,
  employeeTimeOff,
  employeeWorkingHours,
  profiles,
  specialists,
} from "~/db/schema";
import { addDays, businessToday, closedDays, isBusinessDay } from "~/lib/business-calendar";
import {
  createMembership,
  createMemberVisit,
  createServiceRequest,
  createUser,
} from "../../server/seed/factories";
import { uniqueWord } from "./employee-support";
import {
  createCustomer,
  createEmployee,
  e2eDb,
  expect,
  PASSWORD,
  signIn,
  test,
  uniqueEmail,
} from "./fixtures";

/*
 * Issue 41: the member books the covering handyman while hers is away and her visit says so;
 * a handyman refers a plumber from 'Today' and the member sees it; the office reassigns a
 * member and her future visits move.
 */

async function handyman(firstName: string) {
  const lastName = uniqueWord("Handy");
  const account = await createUser(e2eDb(), {
    email: uniqueEmail(firstName.toLowerCase()),
    password: PASSWORD,
    firstName,
    lastName,
    isEmployee: true,
    staffRole: "handyman",
  });
  return { ...account, name: `${firstName} ${lastName}` };
}

async function memberOf(handymanId: string) {
  const lastName = uniqueWord("Member");
  const member = await createCustomer({ firstName: "Maria", lastName });
  await createMembership(e2eDb(), member.id, {
    plan: "complete",
    billing: "annual",
    startDate: businessToday(),
  });
  await e2eDb()
    .update(profiles)
    .set({ dedicatedHandymanId: handymanId })
    .where(eq(profiles.userId, member.id));
  return {
    ...member,
    name: `Maria ${lastName}`,
    home: { id: member.homeId!, customerId: member.id },
  };
}

function businessDayIn(days: number) {
  const closed = closedDays();
  let day = addDays(businessToday(), days);
  while (!isBusinessDay(day, closed)) day = addDays(day, 1);
  return day;
}

test("a member whose handyman is on time off books with the covering handyman and her visit says so", async ({
  page,
}) => {
  const dana = await handyman("Dana");
  const sam = await handyman("Sam");
  // Sam works long days all week: the most free time of any handyman, so he covers.
  await e2eDb()
    .insert(employeeWorkingHours)
    .values(
      [1, 2, 3, 4, 5].map((weekday) => ({
        employeeId: sam.id,
        weekday,
        isWorking: true,
        startMinute: 6 * 60,
        endMinute: 22 * 60,
      })),
    );
  // Dana is away for three weeks.
  await e2eDb()
    .insert(employeeTimeOff)
    .values({
      employeeId: dana.id,
      startDate: businessToday(),
      endDate: addDays(businessToday(), 20),
    });
  const maria = await memberOf(dana.id);
  await createServiceRequest(e2eDb(), maria.home, {
    title: "Fix the porch step",
    priority: "next",
  });

  await signIn(page, maria);
  await page.goto("/dashboard");
  await expect(page.getByTestId("your-handyman-name")).toHaveText(dana.name);
  await page.goto("/dashboard/book");
  await page.getByRole("radio", { name: "1 h 45 min" }).check();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(
    page.getByRole("heading", { name: /^Dana is away until [A-Z][a-z]+ \d{1,2}$/ }),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "Wait for Dana" })).toBeVisible();
  await page.getByRole("link", { name: "Book with Sam" }).click();
  await expect(page.getByTestId("booking-handyman")).toHaveText(
    `With ${sam.name}, covering for ${dana.name}.`,
  );
  await page
    .getByRole("group", { name: "Days with a free time" })
    .getByRole("radio")
    .first()
    .check();
  await page.getByRole("button", { name: "Next" }).click();
  const start = page.getByRole("group", { name: "Start times" }).getByRole("radio").first();
  await expect(start).toHaveAccessibleName(new RegExp(`with ${sam.name}$`));
  await start.check();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("checkbox", { name: "Fix the porch step" }).check();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Confirm Visit" }).click();
  await expect(page.getByText("Your visit is booked!")).toBeVisible();
  await expect(page.getByText(`Handyman: ${sam.name}, covering for ${dana.name}`)).toBeVisible();
  const [visit] = await e2eDb()
    .select()
    .from(appointments)
    .where(eq(appointments.customerId, maria.id));
  expect(visit).toMatchObject({ assignedEmployeeId: sam.id, coveringForId: dana.id });
});

test("a handyman refers a plumber from 'Today' and the member sees the referral", async ({
  page,
}) => {
  const dana = await handyman("Dana");
  const maria = await memberOf(dana.id);
  const company = `${uniqueWord("Drain")} Plumbing`;
  await e2eDb()
    .insert(specialists)
    .values({ trade: "plumber", company, contactName: "Rosa Jimenez", phone: "(404) 555-0191" });
  await createMemberVisit(e2eDb(), maria.home, {
    scheduledDate: businessToday(),
    startTime: "09:00",
    endTime: "10:45",
    assignedEmployeeId: dana.id,
    tasks: ["Look at the water heater"],
  });

  await signIn(page, dana);
  await page.goto("/employee/today");
  const visit = page.getByRole("article").filter({ hasText: maria.name });
  // 'Finish visit' asks about a new water or power source: yes opens the referral.
  await visit.getByText("Finish visit").click();
  await visit.getByLabel("I confirm the time worked").check();
  await visit.getByRole("radio", { name: "Done", exact: true }).check();
  await visit.getByRole("radio", { name: "Yes", exact: true }).check();
  await visit.getByRole("button", { name: "Save and finish" }).click();
  await expect(
    page.getByText(
      "Visit finished. The work needs a new water or power source: refer a specialist below.",
    ),
  ).toBeVisible();
  await visit.getByLabel("Specialist").selectOption({ label: `${company} (Plumber)` });
  await visit.getByLabel("What the job needs").fill("The new water heater needs a new gas line");
  await visit.getByRole("button", { name: "Refer" }).click();
  await expect(
    page.getByText(`Referred to ${company}. The member sees it on her dashboard.`),
  ).toBeVisible();

  await page.context().clearCookies();
  await signIn(page, maria);
  await page.goto("/dashboard");
  const referrals = page.getByRole("region", { name: "Referrals" });
  await expect(referrals.getByText(`${company} · Plumber`)).toBeVisible();
  await expect(referrals.getByText("Referred", { exact: true })).toBeVisible();
  await expect(referrals.getByText("Rosa Jimenez · (404) 555-0191")).toBeVisible();
  await referrals.getByRole("button", { name: `Send my job to ${company}` }).click();
  await expect(referrals.getByText(`Your job was sent to ${company}`)).toBeVisible();
});

test("the office reassigns a member and her future visits move", async ({ page }) => {
  const office = await createEmployee();
  const dana = await handyman("Dana");
  const sam = await handyman("Sam");
  const maria = await memberOf(dana.id);
  const day = businessDayIn(7);
  const { appointment } = await createMemberVisit(e2eDb(), maria.home, {
    scheduledDate: day,
    startTime: "09:00",
    endTime: "10:45",
    assignedEmployeeId: dana.id,
    tasks: ["Hang the hallway mirror"],
  });

  await signIn(page, office);
  await page.goto("/employee");
  await page.getByRole("link", { name: "Handymen", exact: true }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Handymen" })).toBeVisible();
  const row = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: dana.name }) });
  await row.getByText(`${dana.name}'s members`).click();
  await row.getByLabel(`New handyman for ${maria.name}`).selectOption({ label: sam.name });
  await row.getByRole("button", { name: `Reassign ${maria.name}` }).click();
  await expect(
    page.getByText(
      `${sam.name} is now her dedicated handyman. She was told by e-mail. 1 visit moved to him.`,
    ),
  ).toBeVisible();
  const [moved] = await e2eDb()
    .select()
    .from(appointments)
    .where(eq(appointments.id, appointment.id));
  expect(moved).toMatchObject({ assignedEmployeeId: sam.id, scheduledDate: day });
});
