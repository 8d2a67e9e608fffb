import { eq } from "drizzle-orm";
import { appointments, profiles } from "~/db/schema";
import { businessToday } from "~/lib/business-calendar";
import { createMembership, createServiceRequest, createUser } from "../../server/seed/factories";
import { uniqueWord } from "./employee-support";
import { createCustomer, e2eDb, expect, PASSWORD, signIn, test, uniqueEmail } from "./fixtures";

/*
 * Issue 46: a member books 'Two handymen' for a job one person cannot do alone; her visit names
 * both handymen and the fee, her statement shows 'Second handyman: $95.00' once, and both
 * handymen have the visit on their 'Today'.
 */

async function handyman(firstName: string, lastName: string) {
  const account = await createUser(e2eDb(), {
    email: uniqueEmail(firstName.toLowerCase()),
    password: PASSWORD,
    firstName,
    lastName,
    isEmployee: true,
    staffRole: "handyman",
  });
  return { ...account, password: PASSWORD, name: `${firstName} ${lastName}` };
}

test("a member books two handymen, sees both and the fee, and both handymen have it on 'Today'", async ({
  page,
  browser,
}) => {
  const dana = await handyman("Dana", uniqueWord("Lift"));
  // Named to come first among the other handymen free with Dana: the one the booking adds.
  const aaron = await handyman("Aaron", `Aa${uniqueWord()}`);
  const lastName = uniqueWord("Member");
  const maria = await createCustomer({ firstName: "Maria", lastName });
  await createMembership(e2eDb(), maria.id, {
    plan: "complete",
    billing: "annual",
    startDate: businessToday(),
  });
  await e2eDb()
    .update(profiles)
    .set({ dedicatedHandymanId: dana.id })
    .where(eq(profiles.userId, maria.id));
  await createServiceRequest(
    e2eDb(),
    { id: maria.homeId!, customerId: maria.id },
    { title: "Hang the heavy mirror", priority: "next" },
  );

  await signIn(page, maria);
  await page.goto("/dashboard/book");
  await page.getByRole("radio", { name: "1 h 45 min" }).check();
  const two = page.getByRole("checkbox", { name: "Two handymen" });
  await expect(two).toHaveAccessibleDescription("This job needs two handymen, +$95 a visit");
  await two.check();
  await page.getByRole("button", { name: "Next" }).click();
  await page
    .getByRole("group", { name: "Days with a free time" })
    .getByRole("radio")
    .first()
    .check();
  await page.getByRole("button", { name: "Next" }).click();
  const start = page.getByRole("group", { name: "Start times" }).getByRole("radio").first();
  await expect(start).toHaveAccessibleName(new RegExp(`with ${dana.name} and ${aaron.name}$`));
  await start.check();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("checkbox", { name: "Hang the heavy mirror" }).check();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByTestId("second-handyman-fee")).toContainText("Second handyman: $95.00");
  await page.getByRole("button", { name: "Confirm Visit" }).click();
  await expect(page.getByText("Your visit is booked!")).toBeVisible();
  await expect(page.getByTestId("visit-handymen")).toHaveText(
    `Handymen: ${dana.name} and ${aaron.name}`,
  );
  await expect(page.getByTestId("second-handyman-fee")).toContainText("Second handyman: $95.00");
  const [visit] = await e2eDb()
    .select()
    .from(appointments)
    .where(eq(appointments.customerId, maria.id));
  expect(visit).toMatchObject({ assignedEmployeeId: dana.id, secondHandymanId: aaron.id });

  // Her statement: the fee once.
  await page.goto("/dashboard?tab=membership");
  const fee = page
    .getByRole("region", { name: "Statement" })
    .getByRole("row")
    .filter({ hasText: "Second handyman: $95.00" });
  await expect(fee).toHaveCount(1);

  // Both handymen have it on 'Today' (this week's view), each with the other.
  for (const [him, other] of [
    [dana, aaron],
    [aaron, dana],
  ]) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const phone = await context.newPage();
    await signIn(phone, him);
    await phone.goto("/employee/today?view=week");
    await expect(phone.getByText(`Maria ${lastName}`).first()).toBeVisible();
    await expect(phone.getByTestId("with-handyman")).toHaveText(`Two handymen: with ${other.name}`);
    await context.close();
  }
});
