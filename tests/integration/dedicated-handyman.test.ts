import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  appointments,
  employeeTimeOff,
  employeeWorkingHours,
  outbox,
  profiles,
  specialistReferrals,
  specialists,
} from "~/db/schema";
import { bookingHandymen } from "~/features/handymen/away.server";
import { loadOfferContext, offerVisits } from "~/features/availability/availability.server";
import { bookMemberVisit } from "~/features/visits/member-visits.server";
import { completeVisit, visitTasks } from "~/features/visits/visit-life.server";
import { careTables } from "~/features/reports/index.server";
import {
  dedicatedHandymanOf,
  proposedHandymanFor,
  setDedicatedHandyman,
} from "~/features/handymen/dedicated.server";
import { reassignMember } from "~/features/handymen/reassign.server";
import { currentMembership } from "~/features/memberships/summary.server";
import { memberBasics } from "~/routes/dashboard.server";
import { referFromForm } from "~/features/specialists/refer-form.server";
import { consentToReferral, referralsOf } from "~/features/specialists/referrals.server";
import { newActionKey } from "~/lib/action-keys.server";
import { addDays, businessToday, closedDays, isBusinessDay } from "~/lib/business-calendar";
import type { OutboxPayloads } from "~/lib/outbox.server";
import {
  createHome,
  createMembership,
  createMemberVisit,
  createServiceRequest,
  createUser,
} from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * Issue 41 on both databases: a new member gets the handyman with the fewest members in her
 * area; staff change him and her future visits move; a referral is written once, the member
 * sees it, and her consent sends the specialist the job once.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(
    sql`truncate "user", outbox, action_keys, specialists, specialist_referrals cascade`,
  );
});

let n = 0;
const person = (firstName: string, extra: Partial<Parameters<typeof createUser>[1]> = {}) =>
  createUser(database.db, {
    email: `${firstName.toLowerCase()}-${++n}@example.com`,
    password: "Password-2026!",
    firstName,
    lastName: "Test",
    ...extra,
  });
const handyman = (firstName: string) =>
  person(firstName, { isEmployee: true, staffRole: "handyman" });

/** The first business day at least `days` days from today (real today: the visits are ahead). */
function businessDayIn(days: number) {
  const closed = closedDays();
  let day = addDays(businessToday(), days);
  while (!isBusinessDay(day, closed)) day = addDays(day, 1);
  return day;
}

async function member(firstName: string, city: string) {
  const m = await person(firstName);
  const home = await createHome(database.db, m.id, { city });
  await createMembership(database.db, m.id, {
    startDate: businessToday(),
    today: businessToday(),
    assignHandyman: true,
  });
  return { ...m, home };
}

const mails = async (to: string) =>
  (await database.db.select().from(outbox).where(eq(outbox.kind, "email")))
    .map((row) => row.payload as OutboxPayloads["email"])
    .filter((mail) => mail.to === to);

describe(`a member's dedicated handyman (${testDatabaseKind()})`, () => {
  it("gives a new member the handyman with the fewest members in her area", async () => {
    const dana = await handyman("Dana");
    const sam = await handyman("Sam");
    // Office staff are never anyone's dedicated handyman.
    await person("Olive", { isEmployee: true });
    const first = await member("Ann", "Decatur");
    // Both have none: by name, Dana.
    expect((await dedicatedHandymanOf(first.id))?.name).toBe("Dana Test");
    // Dana has one member in Decatur: the next in Decatur gets Sam.
    const second = await member("Bea", "Decatur");
    expect((await dedicatedHandymanOf(second.id))?.id).toBe(sam.id);
    // In Roswell both have none there, and one member each anywhere: by name, Dana.
    const third = await member("Cal", "Roswell");
    expect((await dedicatedHandymanOf(third.id))?.id).toBe(dana.id);
    // A member who has one keeps him when asked again.
    expect(await proposedHandymanFor(second.id)).toBeDefined();
    const [row] = await database.db
      .select({ id: profiles.dedicatedHandymanId })
      .from(profiles)
      .where(eq(profiles.userId, second.id));
    expect(row.id).toBe(sam.id);
  });

  it("changes him once, tells her once, and moves her future visits to him", async () => {
    const dana = await handyman("Dana");
    const sam = await handyman("Sam");
    const office = await person("Olive", { isEmployee: true });
    const maria = await member("Maria", "Decatur");
    expect((await dedicatedHandymanOf(maria.id))?.id).toBe(dana.id);
    const day = businessDayIn(7);
    const visit = await createMemberVisit(database.db, maria.home, {
      scheduledDate: day,
      startTime: "09:00",
      endTime: "10:45",
      assignedEmployeeId: dana.id,
      tasks: ["Hang shelves"],
    });
    const input = {
      customerId: maria.id,
      handymanId: sam.id,
      staffId: office.id,
      moveVisits: true,
    };
    const [first, second] = [await reassignMember(input), await reassignMember(input)];
    expect(first).toMatchObject({ changed: true, moved: 1, kept: 0 });
    expect(second).toMatchObject({ changed: false, moved: 0, kept: 0 });
    const [moved] = await database.db
      .select()
      .from(appointments)
      .where(eq(appointments.id, visit.appointment.id));
    expect(moved).toMatchObject({ assignedEmployeeId: sam.id, scheduledDate: day });
    expect(moved.startTime).toBe("09:00:00");
    const hers = await mails(maria.email);
    expect(hers.filter((m) => m.subject === "Your handyman is now Sam Test")).toHaveLength(1);
    // The visit's 'moved' e-mail with its calendar update names Sam.
    const movedMail = hers.find((m) => m.subject.startsWith("Your visit has moved"));
    expect(movedMail?.text).toContain("Your handyman: Sam Test");
    expect(movedMail?.attachments?.[0].content).toContain("SEQUENCE:1");
    // Only a handyman can be chosen.
    await expect(
      setDedicatedHandyman({ customerId: maria.id, handymanId: office.id, staffId: office.id }),
    ).rejects.toThrow("Please choose one of the handymen.");
  });
});

describe(`referrals (${testDatabaseKind()})`, () => {
  it("refers once with the job's photos, and sends the job once with her consent", async () => {
    const dana = await handyman("Dana");
    const sam = await handyman("Sam");
    const maria = await member("Maria", "Decatur");
    const request = await createServiceRequest(database.db, maria.home, {
      title: "Outlet for the new freezer",
      priority: "next",
      position: 0,
    });
    const visit = await createMemberVisit(database.db, maria.home, {
      scheduledDate: businessDayIn(2),
      startTime: "09:00",
      endTime: "10:45",
      assignedEmployeeId: dana.id,
      tasks: [{ description: request.title, requestId: request.id }],
    });
    const [plumber] = await database.db
      .insert(specialists)
      .values({
        trade: "electrician",
        company: "Peachtree Electric",
        email: "ken@peachtree-electric.example",
        phone: "+17705550142",
        referralFeeCents: 5000,
      })
      .returning();
    const values = {
      key: newActionKey(),
      appointmentId: visit.appointment.id,
      specialistId: plumber.id,
      reason: "A new circuit for the freezer",
      newWaterOrPower: "1",
    };
    // Sam is not on this visit: refused.
    expect(await referFromForm(values, { id: sam.id, isHandyman: true })).toMatchObject({
      ok: false,
      message: "This visit is not on your schedule.",
    });
    const answers = await Promise.all([
      referFromForm(values, { id: dana.id, isHandyman: true }),
      referFromForm(values, { id: dana.id, isHandyman: true }),
    ]);
    expect(answers.map((a) => a.ok)).toEqual([true, true]);
    expect(await database.db.select().from(specialistReferrals)).toHaveLength(1);
    const [referral] = await referralsOf(maria.id);
    expect(referral).toMatchObject({
      status: "referred",
      statusLabel: "Referred",
      consentAt: null,
      specialist: { company: "Peachtree Electric", phone: "(770) 555-0142" },
    });
    expect(referral.feeLine).toContain("referral fee of $50.00");
    expect(
      (await mails(maria.email)).some((m) => m.subject === "We referred you to Peachtree Electric"),
    ).toBe(true);
    // Nothing goes to the specialist before her consent; then once.
    expect(await mails(plumber.email!)).toHaveLength(0);
    expect(await consentToReferral(maria.id, referral.id)).toBe(true);
    expect(await consentToReferral(maria.id, referral.id)).toBe(false);
    const sent = await mails(plumber.email!);
    expect(sent).toHaveLength(1);
    expect(sent[0].text).toContain("A new circuit for the freezer");
    expect(sent[0].text).toContain("It needs a new water or power source.");
    // Another member cannot consent for her.
    const other = await member("Zoe", "Decatur");
    expect(await consentToReferral(other.id, referral.id)).toBe(false);

    // Her dashboard's first statement (ADR 102) reads what the three reads it replaced did: her
    // membership, her handyman, her referrals (read only when she has any); a customer with
    // none of them gets none.
    const lee = await person("Lee");
    for (const customer of [maria, other, lee]) {
      expect(await memberBasics(customer.id)).toEqual({
        membership: await currentMembership(customer.id),
        handyman: await dedicatedHandymanOf(customer.id),
        referrals: await referralsOf(customer.id),
      });
    }
    expect((await memberBasics(maria.id)).referrals).toHaveLength(1);
    expect((await memberBasics(other.id)).handyman).not.toBeNull();
    expect(await memberBasics(lee.id)).toEqual({ membership: null, handyman: null, referrals: [] });
  });
});

describe(`the away rule (${testDatabaseKind()})`, () => {
  it("names the covering handyman with the most free time, and a visit with him says so", async () => {
    const dana = await handyman("Dana");
    const sam = await handyman("Sam");
    await handyman("Abe");
    // Sam works long days: the most free time.
    await database.db.insert(employeeWorkingHours).values(
      [1, 2, 3, 4, 5].map((weekday) => ({
        employeeId: sam.id,
        weekday,
        isWorking: true,
        startMinute: 6 * 60,
        endMinute: 22 * 60,
      })),
    );
    const maria = await member("Maria", "Decatur");
    await database.db
      .update(profiles)
      .set({ dedicatedHandymanId: dana.id })
      .where(eq(profiles.userId, maria.id));
    // Free: no away step, she is named.
    expect(await bookingHandymen(maria.id, 105)).toMatchObject({
      dedicated: { id: dana.id },
      away: null,
    });
    // Away for 20 days: away until his first free day, Sam covers.
    const back = addDays(businessToday(), 21);
    await database.db
      .insert(employeeTimeOff)
      .values({ employeeId: dana.id, startDate: businessToday(), endDate: addDays(back, -1) });
    const away = await bookingHandymen(maria.id, 105);
    // The booking's step reads the offer's context once for the rule and its own offer (ADR
    // 107): the same answers as each read apart, for the window and for one day.
    const context = await loadOfferContext({ customerId: maria.id });
    expect(await bookingHandymen(maria.id, 105, context.now, context)).toEqual(away);
    const window = await offerVisits({ customerId: maria.id, block: 105, now: context.now });
    expect(window.days.length).toBeGreaterThan(0);
    expect(
      await offerVisits({ customerId: maria.id, block: 105, now: context.now, context }),
    ).toEqual(window);
    const oneDay = window.days[1]!.date;
    const forDay = { customerId: maria.id, block: 105, now: context.now, onlyDate: oneDay };
    expect((await offerVisits({ ...forDay, context })).days).toEqual(
      (await offerVisits(forDay)).days,
    );
    expect(away.away?.cover?.id).toBe(sam.id);
    expect(away.away?.until).not.toBeNull();
    expect(away.away!.until! >= back).toBe(true);
    expect(away.away?.untilLabel).toMatch(/^[A-Z][a-z]+ \d{1,2}$/);
    // A visit booked with Sam covers for Dana.
    const request = await createServiceRequest(database.db, maria.home, {
      title: "Fix the porch step",
      priority: "next",
      position: 0,
    });
    const day = businessDayIn(7);
    const visit = await bookMemberVisit(maria.id, {
      block: 105,
      date: day,
      startMinute: 9 * 60,
      employeeId: sam.id,
      requestIds: [request.id],
    });
    expect(visit).toMatchObject({ assignedEmployeeId: sam.id, coveringForId: dana.id });
    const booked = (await mails(maria.email)).find((m) =>
      m.subject.startsWith("Your visit is booked"),
    );
    expect(booked?.text).toContain(`Your handyman: Sam Test, covering for Dana Test`);
  });
});

describe(`the reports (${testDatabaseKind()})`, () => {
  it("count the visits done by the dedicated handyman and the referrals that became jobs", async () => {
    const dana = await handyman("Dana");
    const sam = await handyman("Sam");
    const maria = await member("Maria", "Decatur");
    await database.db
      .update(profiles)
      .set({ dedicatedHandymanId: dana.id })
      .where(eq(profiles.userId, maria.id));
    const today = businessToday();
    for (const [employeeId, startTime, endTime] of [
      [dana.id, "09:00", "10:45"],
      [sam.id, "13:00", "14:45"],
    ]) {
      const { appointment } = await createMemberVisit(database.db, maria.home, {
        scheduledDate: today,
        startTime,
        endTime,
        assignedEmployeeId: employeeId,
        tasks: ["Hang shelves"],
      });
      const tasks = await visitTasks(appointment.id);
      await completeVisit({ id: dana.id, isEmployee: true }, appointment.id, {
        minutesWorked: 60,
        outcomes: Object.fromEntries(tasks.map((t) => [t.id, "done" as const])),
      });
    }
    const [company] = await database.db
      .insert(specialists)
      .values({ trade: "roofer", company: "Top Roofing" })
      .returning();
    await database.db.insert(specialistReferrals).values([
      { specialistId: company.id, customerId: maria.id, reason: "Leak", status: "done" },
      { specialistId: company.id, customerId: maria.id, reason: "Gutter", status: "declined" },
    ]);
    const period = { from: addDays(today, -1), to: addDays(today, 1) } as Parameters<
      typeof careTables
    >[0];
    const [share, referrals] = await careTables(period);
    expect(share.rows).toEqual([["2", "1", "50.0%", "0"]]);
    expect(referrals.rows).toEqual([["Top Roofing", "Roofer", "2", "1 (50.0%)"]]);
  });
});
