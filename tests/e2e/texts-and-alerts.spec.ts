import { and, eq, sql } from "drizzle-orm";
import twilio from "twilio";
import { appointments, outbox } from "~/db/schema";
import { businessToday, businessWallClock, zonedInstant } from "~/lib/business-calendar";
import {
  createAppointment,
  createMembership,
  createServiceRequest,
} from "../../server/seed/factories";
import { BASE_URL } from "../support/ports";
import { E2E_TWILIO } from "../support/twilio-stand-in";
import { chooseFromProfileMenu } from "./auth-helpers";
import { uniqueWord } from "./employee-support";
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

/*
 * Texts (issue 28), through the Twilio SDK to the sink's stand-in of the Messages endpoint: a
 * member opts in from Profile Settings, books a visit and gets its text; the reminder waits in the
 * outbox until 24 hours before (at or after 8 AM) and goes out once; a signed STOP reply stops
 * the next text; the office gets an alert naming her when she cancels.
 */

function quietNow() {
  const { minute } = businessWallClock(new Date());
  return minute >= 21 * 60 || minute < 8 * 60;
}

test("a member opts in to texts, gets the reminder once, STOP stops the next; the office hears of her cancel @phone-only", async ({
  page,
}) => {
  const handyman = await createEmployee({ firstName: "Devon", lastName: uniqueWord("Handy") });
  const lastName = uniqueWord("Texter");
  const member = await createCustomer({ firstName: "Tara", lastName });
  await createMembership(e2eDb(), member.id, {
    plan: "complete",
    billing: "annual",
    startDate: businessToday(),
  });
  const home = { id: member.homeId!, customerId: member.id };
  await createAppointment(e2eDb(), home, {
    scheduledDate: "2026-01-06",
    startTime: "09:00",
    endTime: "10:45",
    assignedEmployeeId: handyman.id,
    tasks: ["First look around"],
  });
  await createServiceRequest(e2eDb(), home, { title: "Fix the gate latch", priority: "next" });
  const digits = String(Math.floor(1000 + Math.random() * 9000));
  const mobile = `+1404555${digits}`;

  // Opt in from Profile Settings.
  await signIn(page, member);
  await page.goto("/dashboard");
  await chooseFromProfileMenu(page, "Profile");
  const card = page
    .getByRole("heading", { name: "Notifications" })
    .locator("xpath=ancestor::*[@data-slot='card'][1]");
  await card.getByRole("button", { name: "Edit Notifications" }).click();
  await card.getByLabel("Mobile number").fill(`(404) 555-${digits}`);
  const textMe = card.getByLabel("Text me about my visits");
  await expect(textMe).not.toBeChecked();
  await textMe.check();
  await expectNoAxeViolations(page);
  await card.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Notifications saved")).toBeVisible();
  await expect(card.getByText("Texts about your visits:")).toBeVisible();
  await expect(card.getByText("On", { exact: true })).toBeVisible();
  await page.keyboard.press("Escape");

  // Book a visit on the second day offered.
  await page.goto("/dashboard/book?block=105");
  const day = page.getByRole("group", { name: "Days with a free time" }).getByRole("radio").nth(1);
  await day.check();
  await page.getByRole("button", { name: "Next" }).click();
  // The first start from 8 AM: other tests' handymen may work from 6 (a reminder the day before
  // a 6 AM visit would be due at 6 AM, and wait for the end of the night).
  await page
    .getByRole("group", { name: "Start times" })
    .getByRole("radio", { name: /^(?![1-7]:\d\d AM)/ })
    .first()
    .check();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("checkbox", { name: "Fix the gate latch" }).check();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("button", { name: "Confirm Visit" }).click();
  await expect(page.getByText("Your visit is booked!")).toBeVisible();
  const [visit] = await e2eDb()
    .select()
    .from(appointments)
    .where(and(eq(appointments.customerId, member.id), eq(appointments.status, "booked")))
    .orderBy(sql`${appointments.createdAt} desc`)
    .limit(1);

  // The booking's text, unless it is night in Atlanta (then it waits for 8 AM).
  if (!quietNow()) {
    await expect
      .poll(async () => (await sink.texts(mobile)).map((t) => t.body))
      .toEqual([expect.stringMatching(/your visit is booked for .*localhost/)]);
  }

  // The reminder waits in the outbox until 24 hours before the start.
  const reminders = await e2eDb()
    .select()
    .from(outbox)
    .where(
      and(
        eq(outbox.recipientId, member.id),
        eq(outbox.kind, "sms"),
        sql`${outbox.payload}->>'kind' = 'reminders'`,
      ),
    );
  expect(reminders).toHaveLength(1);
  const start = zonedInstant(
    visit.scheduledDate,
    Number(visit.startTime.slice(0, 2)) * 60 + Number(visit.startTime.slice(3, 5)),
  );
  expect(reminders[0].nextAttemptAt.getTime()).toBe(start.getTime() - 24 * 60 * 60_000);
  expect(businessWallClock(reminders[0].nextAttemptAt).minute).toBeGreaterThanOrEqual(8 * 60);
  expect(reminders[0].deliveredAt).toBeNull();

  // The day before comes: the reminder is due now.
  const before = (await sink.texts(mobile)).length;
  await e2eDb()
    .update(outbox)
    .set({ nextAttemptAt: new Date() })
    .where(eq(outbox.id, reminders[0].id));
  if (quietNow()) {
    // At night it is held until 8 AM Eastern, and not sent.
    await expect
      .poll(async () => {
        const [row] = await e2eDb().select().from(outbox).where(eq(outbox.id, reminders[0].id));
        return row.nextAttemptAt.getTime() > Date.now() && !row.deliveredAt;
      })
      .toBe(true);
    expect(await sink.texts(mobile)).toHaveLength(before);
  } else {
    await expect
      .poll(async () => (await sink.texts(mobile)).filter((t) => /reminder/.test(t.body)).length)
      .toBe(1);
    // Once: the worker does not send it again.
    await page.waitForTimeout(1500);
    expect((await sink.texts(mobile)).filter((t) => /reminder/.test(t.body))).toHaveLength(1);
  }

  // STOP, signed as Twilio signs it: confirmed, and no more texts.
  const form = { MessageSid: `SM${digits}stop`, From: mobile, To: E2E_TWILIO.from, Body: "STOP" };
  const url = `${BASE_URL}/webhooks/twilio/sms`;
  const stop = await page.request.post(url, {
    form,
    headers: {
      "x-twilio-signature": twilio.getExpectedTwilioSignature(E2E_TWILIO.authToken, url, form),
    },
  });
  expect(stop.status()).toBe(200);
  expect(await stop.text()).toContain("no more texts");
  const forged = await page.request.post(url, {
    form: { ...form, MessageSid: `SM${digits}forged`, Body: "START" },
    headers: { "x-twilio-signature": "Zm9yZ2Vk" },
  });
  expect(forged.status()).toBe(403);

  // She cancels: no text (she said STOP), and the office gets an alert naming her.
  const sentBeforeCancel = (await sink.texts(mobile)).length;
  await page.goto(`/dashboard/visits/${visit.id}`);
  await page.getByRole("button", { name: "Cancel Visit" }).click();
  await page.getByRole("button", { name: "Yes, cancel the visit" }).click();
  await expect(page.getByText("Your visit is canceled.")).toBeVisible();
  const alert = await sink.waitForMail(
    "hello@peachtree-handyman.example",
    new RegExp(`Tara ${lastName} canceled a visit`),
  );
  expect(alert.text).toContain(`Tara ${lastName}`);
  expect(alert.text).toContain(`/employee/customers/${member.id}/membership`);
  expect(alert.text).not.toContain("/dashboard");
  await page.waitForTimeout(1000);
  expect(await sink.texts(mobile)).toHaveLength(sentBeforeCancel);

  // Each text names the business and fits one GSM-7 segment of 160 characters.
  for (const text of await sink.texts(mobile)) {
    expect(text.body).toMatch(/^Peachtree Handyman Club: /);
    expect(text.body.length).toBeLessThanOrEqual(160);
    expect(text.body).toMatch(/^[A-Za-z0-9 @$!"#%&'()*+,\-./:;<=>?_\n]*$/);
  }

  // Staff see every message sent to her under 'Messages'.
  const staff = await createEmployee();
  await page.context().clearCookies();
  await signIn(page, staff);
  await page.goto(`/employee/customers/${member.id}/membership`);
  const messages = page.getByRole("list", { name: "Messages sent" });
  await expect(messages.getByText(/Your visit is booked/).first()).toBeVisible();
  await expect(messages.getByText("Text", { exact: true }).first()).toBeVisible();
});
