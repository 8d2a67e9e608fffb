import crypto from "node:crypto";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import {
  appointments,
  homes,
  introCalls,
  leadEntries,
  membershipMinutesLedger,
  membershipMoneyLedger,
  membershipOffers,
  membershipParts,
  memberships,
  membershipVisits,
  profiles,
  user,
} from "~/db/schema";
import { periodFrom, reportTables } from "~/features/reports";
import { ownerReport } from "~/features/reports/index.server";
import { zonedInstant } from "~/lib/business-calendar";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../support/test-database";

/*
 * Issue 30, item 3: a known history, written into the ledgers entry by entry as the product
 * writes them (running balances, one charge per period, a visit's block reserved then its
 * unused minutes returned, a time correction as its own entry, a cancellation's refunds), each
 * entry dated on the day it happened; then every figure of the reports for the first quarter
 * of 2026 (and for April, with "now" inside it) checked to the cent and the minute, worked out
 * by hand below.
 *
 * The people: Ann (Complete, monthly, joins Jan 10), Ben (Essential, annual, joins Feb 3,
 * cancels Mar 20 inside the 60-day guarantee: every charge back), Cleo (Total, monthly, since
 * Nov 5, cancels Mar 25: her 1,950 unused minutes refunded), one handyman, Hal.
 */

const TZ_NOW = new Date("2026-04-15T16:00:00Z"); // noon in Atlanta
/** A business day and wall-clock time as an instant. */
const at = (date: string, time = "12:00") => {
  const [h, m] = time.split(":").map(Number);
  return zonedInstant(date, h * 60 + m);
};

let database: TestDatabase;

type Ids = { hal: string };

async function person(db: Database, name: string, isEmployee = false) {
  const id = crypto.randomUUID();
  await db.insert(user).values({ id, name, email: `${name.toLowerCase()}@example.com` });
  await db.insert(profiles).values({
    userId: id,
    firstName: name,
    lastName: "Test",
    isEmployee,
    ...(isEmployee ? { staffRole: "handyman" as const } : {}),
  });
  return id;
}

async function buildHistory(db: Database): Promise<Ids> {
  const hal = await person(db, "Hal", true);
  // Office staff with no visits: not a handyman, not in the handymen's figures.
  const office = await person(db, "Olive");
  await db
    .update(profiles)
    .set({ isEmployee: true, staffRole: "office" })
    .where(inArray(profiles.userId, [office]));

  async function member(
    name: string,
    plan: "essential" | "complete" | "total",
    billing: "monthly" | "annual",
    price: number,
    minutesPerYear: number,
    startDate: string,
    canceledOn: string | null,
  ) {
    const customerId = await person(db, name);
    const [home] = await db
      .insert(homes)
      .values({ customerId, address: "1 Main St", city: "Atlanta", state: "GA", zipCode: "30303" })
      .returning();
    const [m] = await db
      .insert(memberships)
      .values({
        customerId,
        homeId: home.id,
        plan,
        planName: {
          essential: "Essential Home Care",
          complete: "Complete Home Care",
          total: "Total Home",
        }[plan],
        monthlyPriceCents: price,
        minutesPerYear,
        visitsPerYear: 24,
        billing,
        startDate,
        status: canceledOn ? "canceled" : "active",
        canceledOn,
        canceledAt: canceledOn ? at(canceledOn, "16:00") : null,
      })
      .returning();
    let bank = 0;
    let balance = 0;
    const minutes = (
      when: Date,
      kind: "accrual" | "reserve" | "release" | "return" | "refund" | "correction",
      n: number,
      appointmentId?: string,
    ) => {
      bank += n;
      return db.insert(membershipMinutesLedger).values({
        membershipId: m.id,
        kind,
        minutes: n,
        balanceAfter: bank,
        appointmentId: appointmentId ?? null,
        note: kind,
        createdAt: when,
      });
    };
    const money = (
      when: Date,
      kind: "membership_charge" | "part" | "shopping_fee" | "payment" | "refund",
      cents: number,
      extra: Partial<typeof membershipMoneyLedger.$inferInsert> = {},
    ) => {
      balance += cents;
      return db.insert(membershipMoneyLedger).values({
        membershipId: m.id,
        kind,
        amountCents: cents,
        balanceAfter: balance,
        description: kind,
        paymentMethod: kind === "payment" ? "card" : null,
        createdAt: when,
        ...extra,
      });
    };
    const charge = async (periodStart: string, cents: number, mins: number) => {
      await money(at(periodStart, "06:00"), "membership_charge", cents, { periodStart });
      await minutes(at(periodStart, "06:00"), "accrual", mins);
    };
    /** A visit with Hal: booked, then completed (worked) or canceled (released), or left open. */
    const visit = async (input: {
      day: string;
      start: string;
      end: string;
      block: 105 | 210;
      reservedOn: string;
      worked?: number;
      releasedOn?: string;
    }) => {
      const [a] = await db
        .insert(appointments)
        .values({
          customerId,
          homeId: home.id,
          assignedEmployeeId: hal,
          scheduledDate: input.day,
          startTime: input.start,
          endTime: input.end,
          createdAt: at(input.reservedOn, "09:00"),
        })
        .returning();
      await minutes(at(input.reservedOn, "09:00"), "reserve", -input.block, a.id);
      const completedAt = at(input.day, "17:00");
      await db.insert(membershipVisits).values({
        appointmentId: a.id,
        membershipId: m.id,
        blockMinutes: input.block,
        status: input.worked ? "completed" : input.releasedOn ? "released" : "reserved",
        minutesWorked: input.worked ?? null,
        completedAt: input.worked ? completedAt : null,
      });
      if (input.worked) {
        if (input.block > input.worked) {
          await minutes(completedAt, "return", input.block - input.worked, a.id);
        }
        await db
          .update(appointments)
          .set({ status: "completed" })
          .where(inArray(appointments.id, [a.id]));
      }
      if (input.releasedOn) {
        await minutes(at(input.releasedOn, "10:00"), "release", input.block, a.id);
        await db
          .update(appointments)
          .set({ status: "canceled" })
          .where(inArray(appointments.id, [a.id]));
      }
      return a.id;
    };
    const part = async (input: {
      appointmentId: string;
      cents: number;
      created: Date;
      decided?: Date;
      bought?: Date;
      feeToo?: boolean;
    }) => {
      const [p] = await db
        .insert(membershipParts)
        .values({
          membershipId: m.id,
          appointmentId: input.appointmentId,
          description: "Part",
          costCents: input.cents,
          needsApproval: input.cents > 10_000,
          status: input.bought ? "bought" : input.decided ? "approved" : "pending_approval",
          decidedAt: input.decided ?? null,
          boughtAt: input.bought ?? null,
          createdAt: input.created,
        })
        .returning();
      if (input.bought) {
        await money(input.bought, "part", input.cents, {
          partId: p.id,
          appointmentId: input.appointmentId,
        });
        await money(input.bought, "shopping_fee", 1_000, { appointmentId: input.appointmentId });
      }
    };
    /** The membership row's running totals, as every ledger write keeps them. */
    const settle = () =>
      db
        .update(memberships)
        .set({ minutesAvailable: bank, balanceCents: balance })
        .where(inArray(memberships.id, [m.id]));
    return { minutes, money, charge, visit, part, settle, id: m.id };
  }

  // Cleo: Total Home, $550/month, 420 minutes a month, since Nov 5, 2025.
  const cleo = await member("Cleo", "total", "monthly", 55_000, 5_040, "2025-11-05", "2026-03-25");
  await cleo.charge("2025-11-05", 55_000, 420);
  await cleo.money(at("2025-11-07"), "payment", -55_000);
  await cleo.charge("2025-12-05", 55_000, 420);
  await cleo.visit({
    day: "2025-12-10",
    start: "08:00",
    end: "11:30",
    block: 210,
    reservedOn: "2025-12-01",
    worked: 150,
  });
  await cleo.charge("2026-01-05", 55_000, 420);
  // Booked Jan 20 for Jan 26, canceled Jan 22: its 105 minutes back.
  await cleo.visit({
    day: "2026-01-26",
    start: "13:00",
    end: "14:45",
    block: 105,
    reservedOn: "2026-01-20",
    releasedOn: "2026-01-22",
  });
  await cleo.charge("2026-02-05", 55_000, 420);
  await cleo.charge("2026-03-05", 55_000, 420);
  // Canceled Mar 25, outside the guarantee: 2,100 - 150 = 1,950 minutes unused, refunded.
  await cleo.minutes(at("2026-03-25", "16:00"), "refund", -1_950);
  await cleo.money(at("2026-03-25", "16:00"), "refund", -255_357);
  await cleo.settle();

  // Ann: Complete, $295/month, 210 minutes a month, from Jan 10.
  const ann = await member("Ann", "complete", "monthly", 29_500, 2_520, "2026-01-10", null);
  await ann.charge("2026-01-10", 29_500, 210);
  await ann.money(at("2026-01-12"), "payment", -29_500);
  const v1 = await ann.visit({
    day: "2026-01-20",
    start: "08:00",
    end: "09:45",
    block: 105,
    reservedOn: "2026-01-15",
    worked: 90,
  });
  await ann.charge("2026-02-10", 29_500, 210);
  const v2 = await ann.visit({
    day: "2026-02-17",
    start: "08:00",
    end: "11:30",
    block: 210,
    reservedOn: "2026-02-11",
    worked: 210,
  });
  // A part over $100: asked Feb 17, approved two days later, bought the day after.
  await ann.part({
    appointmentId: v2,
    cents: 12_345,
    created: at("2026-02-17", "15:00"),
    decided: at("2026-02-19", "15:00"),
    bought: at("2026-02-20", "10:00"),
  });
  // 'Correct time worked' on Mar 2: Jan 20's visit took 105 minutes, not 90.
  await ann.minutes(at("2026-03-02"), "correction", -15, v1);
  await ann.charge("2026-03-10", 29_500, 210);
  // Another part over $100, asked Mar 30, still waiting on Mar 31.
  await ann.part({ appointmentId: v2, cents: 20_000, created: at("2026-03-30", "15:00") });
  // Reserved Mar 28 for Apr 2 (still owed on Mar 31), completed Apr 2 with the block used.
  await ann.visit({
    day: "2026-04-02",
    start: "10:00",
    end: "11:45",
    block: 105,
    reservedOn: "2026-03-28",
    worked: 105,
  });
  await ann.charge("2026-04-10", 29_500, 210);
  await ann.money(at("2026-04-12"), "payment", -29_500);
  // Reserved Apr 13 for Apr 20: open.
  await ann.visit({
    day: "2026-04-20",
    start: "08:00",
    end: "09:45",
    block: 105,
    reservedOn: "2026-04-13",
  });
  await ann.settle();

  // Ben: Essential, annual ($2,100 upfront, 1,050 minutes), Feb 3 to Mar 20 (guarantee).
  const ben = await member("Ben", "essential", "annual", 17_500, 1_050, "2026-02-03", "2026-03-20");
  await ben.charge("2026-02-03", 210_000, 1_050);
  const vb = await ben.visit({
    day: "2026-02-24",
    start: "13:00",
    end: "14:45",
    block: 105,
    reservedOn: "2026-02-20",
    worked: 60,
  });
  // A part under $100: no approval, bought the next day, with the visit's shopping fee.
  await ben.part({
    appointmentId: vb,
    cents: 4_500,
    created: at("2026-02-24", "15:00"),
    bought: at("2026-02-25", "10:00"),
  });
  await ben.minutes(at("2026-03-20", "16:00"), "refund", -990);
  await ben.money(at("2026-03-20", "16:00"), "refund", -210_000);
  await ben.settle();

  // Leads and intro calls; 11:30 PM on Mar 31 in Atlanta is already April in UTC.
  for (const [when, name] of [
    [at("2025-12-28"), "Dec"],
    [at("2026-01-03"), "Jan a"],
    [at("2026-01-25"), "Jan b"],
    [at("2026-02-01"), "Feb"],
    [at("2026-03-31", "23:30"), "Mar late"],
    [at("2026-04-01", "00:30"), "Apr early"],
  ] as const) {
    await db.insert(leadEntries).values({
      name,
      email: "lead@example.com",
      formType: "contact",
      source: "home",
      createdAt: when,
    });
  }
  // Walk-thrus counted in the month they were booked (a canceled one is not), and offers sent.
  const [rosa, omar] = [await person(db, "Rosa"), await person(db, "Omar")];
  const walkThru = (createdAt: Date, startTime: string, endTime: string) => ({
    kind: "walk_thru" as const,
    contactName: "Walk-thru",
    address: "1 Elm St, Atlanta, GA 30303",
    assignedEmployeeId: null,
    scheduledDate: "2026-02-20",
    startTime,
    endTime,
    createdAt,
  });
  const [, canceledWalkThru] = await db
    .insert(appointments)
    .values([
      walkThru(at("2026-02-10"), "09:00:00", "09:45:00"),
      walkThru(at("2026-02-11"), "11:00:00", "11:45:00"),
    ])
    .returning();
  // A visit is booked before it is canceled (ADR 046): the second walk-thru is canceled after.
  await db
    .update(appointments)
    .set({ status: "canceled" })
    .where(inArray(appointments.id, [canceledWalkThru.id]));
  await db.insert(membershipOffers).values([
    {
      customerId: rosa,
      plan: "essential",
      billing: "monthly",
      startDate: "2026-01-20",
      createdAt: at("2026-01-15"),
    },
    {
      customerId: omar,
      plan: "total",
      billing: "annual",
      startDate: "2026-03-01",
      status: "withdrawn",
      createdAt: at("2026-02-14"),
    },
  ]);
  await db.insert(introCalls).values([
    {
      name: "Ann",
      email: "ann@example.com",
      startsAt: at("2026-01-06", "10:00"),
      createdAt: at("2026-01-04"),
    },
    {
      name: "Ben",
      email: "ben@example.com",
      startsAt: at("2026-02-03", "10:00"),
      createdAt: at("2026-02-02"),
    },
  ]);
  return { hal };
}

let ids: Ids;

beforeAll(async () => {
  database = await createTestDatabase();
  ids = await buildHistory(database.db);
});

afterAll(async () => {
  await database?.drop();
});

describe(`the owner's reports on a known history (${testDatabaseKind()})`, () => {
  const q1 = periodFrom(
    new URLSearchParams({ period: "custom", from: "2026-01-01", to: "2026-03-31" }),
    "2026-04-15",
  );

  it("counts members, churn, recurring revenue, revenue, payments and refunds per month", async () => {
    const r = await ownerReport(q1, { now: TZ_NOW, database: database.db });
    expect(r.asOf).toBe("2026-03-31");
    expect(r.members.activeTotal).toBe(1);
    expect(r.members.mrrCents).toBe(29_500);
    expect(
      r.members.active.find((a) => a.plan === "complete" && a.billing === "monthly"),
    ).toMatchObject({ count: 1, mrrCents: 29_500 });
    expect(r.members.active.filter((a) => a.count > 0)).toHaveLength(1);
    expect(r.members.months).toEqual([
      {
        month: "2026-01-01",
        activeAtStart: 1,
        newMembers: 1,
        canceled: 0,
        churnBasisPoints: 0,
        mrrCents: 84_500,
      },
      {
        month: "2026-02-01",
        activeAtStart: 2,
        newMembers: 1,
        canceled: 0,
        churnBasisPoints: 0,
        mrrCents: 102_000,
      },
      {
        month: "2026-03-01",
        activeAtStart: 3,
        newMembers: 0,
        canceled: 2,
        churnBasisPoints: 6_667,
        mrrCents: 29_500,
      },
    ]);
    expect(r.members.revenue).toEqual([
      {
        month: "2026-01-01",
        membershipCents: 84_500,
        extraVisitCents: 0,
        partsCents: 0,
        shoppingFeeCents: 0,
        secondHandymanCents: 0,
        correctionCents: 0,
        creditCents: 0,
        netCents: 84_500,
        // Ann's payment of Jan 12.
        paymentCents: 29_500,
        refundCents: 0,
      },
      {
        month: "2026-02-01",
        membershipCents: 294_500,
        extraVisitCents: 0,
        partsCents: 16_845,
        shoppingFeeCents: 2_000,
        secondHandymanCents: 0,
        correctionCents: 0,
        creditCents: 0,
        netCents: 313_345,
        paymentCents: 0,
        refundCents: 0,
      },
      {
        month: "2026-03-01",
        membershipCents: 84_500,
        extraVisitCents: 0,
        partsCents: 0,
        shoppingFeeCents: 0,
        secondHandymanCents: 0,
        correctionCents: 0,
        // The credits netted at Ben's and Cleo's cancels: not money paid out (none was).
        creditCents: 465_357,
        netCents: -380_857,
        paymentCents: 0,
        refundCents: 0,
      },
    ]);
    expect(r.members.revenueTotal).toEqual({
      membershipCents: 463_500,
      extraVisitCents: 0,
      partsCents: 16_845,
      shoppingFeeCents: 2_000,
      secondHandymanCents: 0,
      correctionCents: 0,
      creditCents: 465_357,
      netCents: 16_988,
      paymentCents: 29_500,
      refundCents: 0,
    });
  });

  it("counts the hours owed and their value, and hours sold, reserved and used", async () => {
    const r = await ownerReport(q1, { now: TZ_NOW, database: database.db });
    // Ann on Mar 31: 630 paid - 90 (Jan 20) - 210 (Feb 17) - 15 (the correction) = 315
    // minutes; Apr 2's reserved block is still owed. 315 min x $3,540/2,520 min = $442.50.
    expect(r.hours.owed).toEqual([
      { plan: "essential", planName: "Essential Home Care", minutes: 0, valueCents: 0 },
      { plan: "complete", planName: "Complete Home Care", minutes: 315, valueCents: 44_250 },
      { plan: "total", planName: "Total Home", minutes: 0, valueCents: 0 },
    ]);
    expect(r.hours.owedMinutes).toBe(315);
    expect(r.hours.owedCents).toBe(44_250);
    expect(r.hours.months).toEqual([
      // Each visit's entries in the month of the visit, as the statement dates them (ADR 082):
      // Jan 20's correction, written Mar 2, is January's; Apr 2's block, reserved Mar 28, April's.
      {
        month: "2026-01-01",
        soldMinutes: 630,
        reservedMinutes: 105,
        usedMinutes: 105,
        refundedMinutes: 0,
      },
      {
        month: "2026-02-01",
        soldMinutes: 1_680,
        reservedMinutes: 315,
        usedMinutes: 270,
        refundedMinutes: 0,
      },
      {
        month: "2026-03-01",
        soldMinutes: 630,
        reservedMinutes: 0,
        usedMinutes: 0,
        refundedMinutes: 2_940,
      },
    ]);
    // Jan 20 (105 after the correction), Feb 17 (210), Feb 24 (60): 375 / 3 = 125 minutes.
    expect(r.hours.completedVisits).toBe(3);
    expect(r.hours.averageWorkedMinutes).toBe(125);
  });

  it("measures the handyman's booked against available hours", async () => {
    const r = await ownerReport(q1, { now: TZ_NOW, database: database.db });
    // 64 weekdays less New Year's Day, MLK Day and Washington's Birthday: 61 days of 10 hours.
    expect(r.handymen.people).toEqual([
      {
        id: ids.hal,
        name: "Hal Test",
        availableMinutes: 36_600,
        bookedMinutes: 420,
        workingDays: 61,
        completedVisits: 3,
        workedMinutes: 375,
        workedBookedMinutes: 420,
      },
    ]);
    const weeks = Object.fromEntries(r.handymen.weeks.map((w) => [w.week, w]));
    expect(weeks["2025-12-29"]).toEqual({
      week: "2025-12-29",
      availableMinutes: 600,
      bookedMinutes: 0,
    });
    expect(weeks["2026-01-19"]).toEqual({
      week: "2026-01-19",
      availableMinutes: 2_400,
      bookedMinutes: 105,
    });
    expect(weeks["2026-02-16"]).toEqual({
      week: "2026-02-16",
      availableMinutes: 2_400,
      bookedMinutes: 210,
    });
    expect(weeks["2026-02-23"]).toEqual({
      week: "2026-02-23",
      availableMinutes: 3_000,
      bookedMinutes: 105,
    });
    expect(weeks["2026-03-30"]).toEqual({
      week: "2026-03-30",
      availableMinutes: 1_200,
      bookedMinutes: 0,
    });
    expect(r.handymen.weeks.reduce((t, w) => t + w.availableMinutes, 0)).toBe(36_600);
  });

  it("follows leads to members and parts to their decisions", async () => {
    const r = await ownerReport(q1, { now: TZ_NOW, database: database.db });
    expect(r.sales.months).toEqual([
      { month: "2026-01-01", leads: 2, introCalls: 1, walkThrus: 0, offers: 1, newMembers: 1 },
      { month: "2026-02-01", leads: 1, introCalls: 1, walkThrus: 1, offers: 1, newMembers: 1 },
      { month: "2026-03-01", leads: 1, introCalls: 0, walkThrus: 0, offers: 0, newMembers: 0 },
    ]);
    expect(r.parts).toEqual({
      pendingCount: 1,
      pendingCents: 20_000,
      decided: 1,
      averageDecisionHundredths: 200,
      partsCount: 2,
      partsCents: 16_845,
      shoppingFeeCount: 2,
      shoppingFeeCents: 2_000,
    });
  });

  it("takes the figures of a period running past today as of now", async () => {
    const april = periodFrom(new URLSearchParams({ period: "this-month" }), "2026-04-15");
    const r = await ownerReport(april, { now: TZ_NOW, database: database.db });
    expect(r.asOf).toBe("2026-04-15");
    // 840 paid - 90 - 210 - 15 - 105 (Apr 2) = 420; Apr 20's reserved block is still owed.
    expect(r.hours.owed.find((o) => o.plan === "complete")).toEqual({
      plan: "complete",
      planName: "Complete Home Care",
      minutes: 420,
      valueCents: 59_000,
    });
    // The same figure read from the hours ledger (a period ending before today) agrees.
    const through15 = periodFrom(
      new URLSearchParams({ period: "custom", from: "2026-04-01", to: "2026-04-15" }),
      "2026-04-16",
    );
    const fromLedger = await ownerReport(through15, {
      now: new Date("2026-04-16T16:00:00Z"),
      database: database.db,
    });
    expect(fromLedger.asOf).toBe("2026-04-15");
    expect(fromLedger.hours.owed).toEqual(r.hours.owed);
    expect(r.hours.months).toEqual([
      {
        month: "2026-04-01",
        soldMinutes: 210,
        // Apr 2's block (reserved in March) and Apr 20's.
        reservedMinutes: 210,
        usedMinutes: 105,
        refundedMinutes: 0,
      },
    ]);
    expect(r.members.revenue[0]).toMatchObject({
      membershipCents: 29_500,
      netCents: 29_500,
      paymentCents: 29_500,
    });
    expect(r.sales.months).toEqual([
      { month: "2026-04-01", leads: 1, introCalls: 0, walkThrus: 0, offers: 0, newMembers: 0 },
    ]);
    expect(r.parts).toMatchObject({
      pendingCount: 1,
      pendingCents: 20_000,
      decided: 0,
      averageDecisionHundredths: null,
    });
    expect(r.members.months[0]).toMatchObject({
      activeAtStart: 1,
      newMembers: 0,
      canceled: 0,
      mrrCents: 29_500,
    });
  });

  it("shows the same figures in the page's tables and CSV files", async () => {
    const tables = Object.fromEntries(
      reportTables(await ownerReport(q1, { now: TZ_NOW, database: database.db })).map((t) => [
        t.id,
        t,
      ]),
    );
    expect(tables["revenue-by-month"].rows.at(-1)).toEqual([
      "Period",
      "$4,635.00",
      "$0.00",
      "$168.45",
      "$20.00",
      "$0.00",
      "$0.00",
      "$4,653.57",
      "$169.88",
      "$295.00",
      "$0.00",
    ]);
    expect(tables["revenue-by-month"].rows[2][8]).toBe("-$3,808.57");
    expect(tables["members-by-month"].rows[2]).toEqual([
      "Mar 2026",
      "3",
      "0",
      "2",
      "66.7%",
      "$295.00",
    ]);
    expect(tables["hours-owed"].rows.at(-1)).toEqual(["All plans", "5 h 15 min", "$442.50"]);
    expect(tables.handymen.rows[0]).toEqual([
      "Hal Test",
      "610 h",
      "7 h",
      "1.1%",
      "3",
      "0.0",
      "6 h 15 min",
      "7 h",
    ]);
    expect(tables.parts.rows[3]).toEqual(["Average days to a decision", "2.0"]);
  });
});
