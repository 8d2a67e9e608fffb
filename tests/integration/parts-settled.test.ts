import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { membershipMoneyLedger, membershipParts, memberships, outbox } from "~/db/schema";
import { cancelMembership } from "~/workflows/cancel-membership.server";
import { membershipCounters } from "~/features/memberships/counters.server";
import {
  addPart,
  addPartOnce,
  correctPartOnce,
  decidePart,
  markPartBoughtOnce,
  removePartOnce,
} from "~/features/memberships/parts.server";
import { ownerReport } from "~/features/reports/reports.server";
import { addPartToOwnVisit, finishOwnVisit } from "~/features/visits/today.server";
import { visitTasks } from "~/features/visits/visit-life.server";
import { newActionKey } from "~/lib/action-keys.server";
import { addDays, businessNow } from "~/lib/business-calendar";
import { resetEnvForTests } from "~/lib/env.server";
import type { OutboxPayloads } from "~/lib/outbox.server";
import {
  createHome,
  createMembership,
  createMemberVisit,
  createUser,
} from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * Parts, settled (issue 39 item 6, issue 40 item 10): a part recorded with its receipt photo is
 * bought (charged with the visit's one $10 fee), 'Add part' and 'Mark Bought' apply once per
 * key however many posts arrive at once, office staff remove or correct a wrong part (a
 * reversing entry when it was charged), the office hears of a handyman's part, the completion
 * e-mail lists the parts, and a canceled membership's waiting parts are withdrawn.
 */

let database: TestDatabase;
beforeAll(async () => {
  process.env.OFFICE_MOBILE = "(404) 555-0199";
  resetEnvForTests();
  database = await useTestDatabase();
});
afterAll(async () => {
  delete process.env.OFFICE_MOBILE;
  resetEnvForTests();
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox, action_keys cascade`);
});

const today = businessNow().date;
/** A receipt already stored by the photo pipeline (its files are not read here). */
const receipt = { filePath: "part-receipts/r.jpg", thumbnailPath: "part-receipts/r-thumb.webp" };

let n = 0;
async function world() {
  n++;
  const make = (name: string, extra: Record<string, unknown> = {}) =>
    createUser(database.db, {
      email: `${name}${n}@example.com`,
      password: "x",
      firstName: name,
      lastName: "Test",
      ...extra,
    });
  const dana = await make("dana", { isEmployee: true, staffRole: "handyman" });
  const office = await make("sam", { isEmployee: true });
  const member = await make("maria");
  const home = await createHome(database.db, member.id);
  const membership = await createMembership(database.db, member.id, {
    plan: "complete",
    billing: "monthly",
    startDate: today,
    staffId: office.id,
    today,
  });
  const { appointment: visit } = await createMemberVisit(database.db, home, {
    today,
    scheduledDate: today,
    startTime: "09:00",
    endTime: "10:45",
    assignedEmployeeId: dana.id,
    tasks: ["Fix the gate"],
  });
  return { dana, office, member, home, membership, visit };
}

/** The money ledger's part, fee and correction lines of a membership, in order. */
async function partLines(membershipId: string) {
  const rows = await database.db
    .select({
      kind: membershipMoneyLedger.kind,
      amountCents: membershipMoneyLedger.amountCents,
      description: membershipMoneyLedger.description,
    })
    .from(membershipMoneyLedger)
    .where(eq(membershipMoneyLedger.membershipId, membershipId))
    .orderBy(asc(membershipMoneyLedger.seq));
  return rows.filter((r) => r.kind !== "membership_charge" && r.kind !== "payment");
}

async function balanceOf(membershipId: string) {
  const [m] = await database.db
    .select({ balanceCents: memberships.balanceCents })
    .from(memberships)
    .where(eq(memberships.id, membershipId));
  return m.balanceCents;
}

async function sent() {
  const rows = await database.db.select().from(outbox).orderBy(asc(outbox.createdAt));
  return {
    mails: rows.filter((r) => r.kind === "email").map((r) => r.payload as OutboxPayloads["email"]),
    texts: rows.filter((r) => r.kind === "sms").map((r) => r.payload as OutboxPayloads["sms"]),
  };
}

describe(`parts, settled (${testDatabaseKind()})`, () => {
  it("a part added with its receipt is charged at once with the visit's one $10 fee, and the office is alerted", async () => {
    const { dana, member, membership, visit } = await world();
    const before = await balanceOf(membership.id);
    const first = await addPartToOwnVisit(
      { id: dana.id },
      {
        appointmentId: visit.id,
        key: newActionKey(),
        description: "Gate hinge",
        costCents: 2_450,
        receipt,
      },
    );
    expect(first.part).toMatchObject({ status: "bought", boughtBy: dana.id });
    // A second part with its receipt on the same visit: no second fee.
    await addPartToOwnVisit(
      { id: dana.id },
      {
        appointmentId: visit.id,
        key: newActionKey(),
        description: "Screws",
        costCents: 450,
        receipt,
      },
    );
    // Without a receipt: recorded, not charged until 'Mark Bought'.
    const later = await addPartToOwnVisit(
      { id: dana.id },
      { appointmentId: visit.id, key: newActionKey(), description: "Latch", costCents: 900 },
    );
    expect(later.part?.status).toBe("approved");
    expect((await partLines(membership.id)).map((l) => [l.kind, l.amountCents])).toEqual([
      ["part", 2_450],
      ["shopping_fee", 1_000],
      ["part", 450],
    ]);
    expect(await balanceOf(membership.id)).toBe(before + 2_450 + 1_000 + 450);

    // The office hears of each part: an e-mail to the office and a text to OFFICE_MOBILE.
    const { mails, texts } = await sent();
    const alerts = mails.filter((m) => m.subject.startsWith("Part added for"));
    expect(alerts.map((m) => m.subject)).toEqual([
      "Part added for maria Test: Gate hinge ($24.50)",
      "Part added for maria Test: Screws ($4.50)",
      "Part added for maria Test: Latch ($9.00)",
    ]);
    expect(alerts[0].to).toBe("hello@peachtree-handyman.example");
    expect(alerts[0].text).toContain("charged now, with the visit's $10 shopping fee once");
    expect(alerts[2].text).toContain("press 'Mark Bought' once it is bought");
    expect(alerts[0].text).toContain(`/employee/customers/${member.id}/membership`);
    const officeTexts = texts.filter((t) => t.to === "(404) 555-0199");
    expect(officeTexts).toHaveLength(3);
    // One segment: the link is kept whole, the words before it shortened to fit.
    expect(officeTexts[0].body).toContain("Part added for maria Test: Gate hinge");
    expect(officeTexts[0].body).toContain("/employee/customers/");
    expect(officeTexts[0].body.length).toBeLessThanOrEqual(160);
  });

  it("over $100 with its receipt, the part is charged when the member approves it", async () => {
    const { dana, member, membership, visit } = await world();
    const { part } = await addPartToOwnVisit(
      { id: dana.id },
      {
        appointmentId: visit.id,
        key: newActionKey(),
        description: "Water heater valve",
        costCents: 14_000,
        receipt,
      },
    );
    expect(part?.status).toBe("pending_approval");
    expect(await partLines(membership.id)).toEqual([]);
    const approved = await decidePart(member.id, part!.id, "approve");
    expect(approved.status).toBe("bought");
    expect((await partLines(membership.id)).map((l) => [l.kind, l.amountCents])).toEqual([
      ["part", 14_000],
      ["shopping_fee", 1_000],
    ]);
    const { mails } = await sent();
    expect(mails.find((m) => m.subject.startsWith("You approved a part"))?.text).toContain(
      "Your handyman bought it for your visit",
    );
  });

  it("ten 'Add part' posts of one form at once make one part and one charge", async () => {
    const { dana, office, membership, visit } = await world();
    const key = newActionKey();
    const input = {
      appointmentId: visit.id,
      key,
      description: "Gate hinge",
      costCents: 2_450,
      receipt,
    };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => addPartToOwnVisit({ id: dana.id }, input)),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    // The office's own 'Add Part' form, ten at once with its key.
    const officeKey = newActionKey();
    const staffResults = await Promise.all(
      Array.from({ length: 10 }, () =>
        addPartOnce(
          { appointmentId: visit.id, description: "Washers", costCents: 350 },
          office.id,
          officeKey,
        ),
      ),
    );
    expect(staffResults.filter((r) => r.applied)).toHaveLength(1);
    const parts = await database.db
      .select()
      .from(membershipParts)
      .where(eq(membershipParts.membershipId, membership.id));
    expect(parts.map((p) => p.description).sort()).toEqual(["Gate hinge", "Washers"]);
    expect((await partLines(membership.id)).map((l) => [l.kind, l.amountCents])).toEqual([
      ["part", 2_450],
      ["shopping_fee", 1_000],
    ]);
    expect((await sent()).mails.filter((m) => m.subject.startsWith("Part added"))).toHaveLength(1);
  });

  it("ten 'Mark Bought' posts of one form at once charge the part once", async () => {
    const { office, membership, visit } = await world();
    const part = await addPart(
      { appointmentId: visit.id, description: "Washers", costCents: 350 },
      office.id,
    );
    const key = newActionKey();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => markPartBoughtOnce(part.id, office.id, key)),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect((await partLines(membership.id)).map((l) => [l.kind, l.amountCents])).toEqual([
      ["part", 350],
      ["shopping_fee", 1_000],
    ]);
    // A second 'Mark Bought' form (a fresh key) is refused: the part is bought.
    await expect(markPartBoughtOnce(part.id, office.id, newActionKey())).rejects.toThrow(
      "already marked bought",
    );
  });

  it("office staff correct and remove a wrong part: charged ones are reversed, the fee with the last one", async () => {
    const { dana, office, membership, visit } = await world();
    const before = await balanceOf(membership.id);
    const { part: hinge } = await addPartToOwnVisit(
      { id: dana.id },
      {
        appointmentId: visit.id,
        key: newActionKey(),
        description: "Hinge",
        costCents: 2_450,
        receipt,
      },
    );
    const { part: latch } = await addPartToOwnVisit(
      { id: dana.id },
      {
        appointmentId: visit.id,
        key: newActionKey(),
        description: "Latch",
        costCents: 900,
        receipt,
      },
    );
    // The receipt said $42.50: the difference is a correction, the charge is never edited.
    const correctKey = newActionKey();
    const corrections = await Promise.all(
      Array.from({ length: 10 }, () =>
        correctPartOnce(
          { partId: hinge!.id, description: "Gate hinge", costCents: 4_250 },
          office.id,
          correctKey,
        ),
      ),
    );
    expect(corrections.filter((r) => r.applied)).toHaveLength(1);
    const removeKey = newActionKey();
    const removals = await Promise.all(
      Array.from({ length: 10 }, () => removePartOnce(latch!.id, office.id, removeKey)),
    );
    expect(removals.filter((r) => r.applied)).toHaveLength(1);
    expect(await balanceOf(membership.id)).toBe(before + 4_250 + 1_000);
    // The last part removed: the fee goes too; a part bought again charges it again.
    await removePartOnce(hinge!.id, office.id, newActionKey());
    expect(await balanceOf(membership.id)).toBe(before);
    await expect(removePartOnce(hinge!.id, office.id, newActionKey())).rejects.toThrow(
      "already removed",
    );
    const washer = await addPart(
      { appointmentId: visit.id, description: "Washers", costCents: 350 },
      office.id,
    );
    await markPartBoughtOnce(washer.id, office.id, newActionKey());
    expect(await balanceOf(membership.id)).toBe(before + 350 + 1_000);
    expect(
      (await partLines(membership.id)).map((l) => [l.kind, l.amountCents, l.description]),
    ).toEqual([
      ["part", 2_450, expect.stringMatching(/^Part: Hinge \(visit on /)],
      ["shopping_fee", 1_000, expect.stringMatching(/^Shopping fee \(visit on /)],
      ["part", 900, expect.stringMatching(/^Part: Latch/)],
      [
        "correction",
        1_800,
        expect.stringMatching(/^Part corrected: Hinge, \$24\.50, is Gate hinge, \$42\.50/),
      ],
      ["correction", -900, expect.stringMatching(/^Part removed: Latch/)],
      ["correction", -4_250, expect.stringMatching(/^Part removed: Gate hinge/)],
      ["correction", -1_000, expect.stringMatching(/^Shopping fee reversed: no part bought/)],
      ["part", 350, expect.stringMatching(/^Part: Washers/)],
      ["correction", 1_000, expect.stringMatching(/^Shopping fee charged again/)],
    ]);
    const [removed] = await database.db
      .select()
      .from(membershipParts)
      .where(eq(membershipParts.id, latch!.id));
    expect(removed).toMatchObject({ status: "removed", removedBy: office.id });
  });

  it("a correction above $100 asks the member again; a removed waiting part is no longer asked about", async () => {
    const { office, member, visit } = await world();
    const filter = await addPart(
      { appointmentId: visit.id, description: "Filter", costCents: 4_000 },
      office.id,
    );
    const corrected = await correctPartOnce(
      { partId: filter.id, description: "Filter, whole-house", costCents: 12_000 },
      office.id,
      newActionKey(),
    );
    expect(corrected.value?.status).toBe("pending_approval");
    expect((await membershipCounters(database.db)).partsAwaitingApproval).toBe(1);
    expect((await sent()).mails.at(-1)?.subject).toBe(
      "Parts approval needed: Filter, whole-house ($120.00)",
    );
    await removePartOnce(filter.id, office.id, newActionKey());
    expect((await membershipCounters(database.db)).partsAwaitingApproval).toBe(0);
    await expect(decidePart(member.id, filter.id, "approve")).rejects.toThrow(
      "not waiting for your approval",
    );
  });

  it("the completion e-mail lists the visit's parts and the fee", async () => {
    const { dana, office, member, visit } = await world();
    await addPartToOwnVisit(
      { id: dana.id },
      {
        appointmentId: visit.id,
        key: newActionKey(),
        description: "Gate hinge",
        costCents: 2_450,
        receipt,
      },
    );
    await addPartToOwnVisit(
      { id: dana.id },
      {
        appointmentId: visit.id,
        key: newActionKey(),
        description: "Water heater valve",
        costCents: 14_000,
      },
    );
    const wrong = await addPart(
      { appointmentId: visit.id, description: "Wrong bolt", costCents: 100 },
      office.id,
    );
    await removePartOnce(wrong.id, office.id, newActionKey());
    const [task] = await visitTasks(visit.id, database.db);
    await finishOwnVisit(
      { id: dana.id },
      {
        appointmentId: visit.id,
        key: newActionKey(),
        minutesWorked: 60,
        confirmed: true,
        outcomes: { [task.id]: "done" },
      },
    );
    const done = (await sent()).mails.find(
      (m) => m.subject.startsWith("Visit completed") && m.to === `maria${n}@example.com`,
    );
    expect(done, `completion e-mail to ${member.id}`).toBeDefined();
    expect(done!.text).toContain(
      [
        "Parts:",
        "- Gate hinge: $24.50 (bought, on your statement)",
        "- Water heater valve: $140.00 (waiting for your approval)",
        "Shopping fee for the visit's parts: $10.00 (once per visit).",
      ].join("\n"),
    );
    expect(done!.text).not.toContain("Wrong bolt");
    expect(done!.html).toContain("Gate hinge: $24.50");
  });

  it("a canceled membership's waiting parts are withdrawn: not asked, not counted pending", async () => {
    const { office, member, home, membership } = await world();
    const { appointment: upcoming } = await createMemberVisit(database.db, home, {
      today,
      scheduledDate: addDays(today, 7),
      startTime: "09:00",
      endTime: "10:45",
      tasks: ["Paint the door"],
    });
    const valve = await addPart(
      { appointmentId: upcoming.id, description: "Water heater valve", costCents: 14_000 },
      office.id,
    );
    const paint = await addPart(
      { appointmentId: upcoming.id, description: "Paint", costCents: 3_000 },
      office.id,
    );
    const period = { from: addDays(today, -30), to: today };
    const report = () => ownerReport(period, { now: new Date(), database: database.db });
    expect((await report()).parts.pendingCount).toBe(1);
    expect((await membershipCounters(database.db)).partsAwaitingApproval).toBe(1);

    await cancelMembership({ membershipId: membership.id }, { id: office.id, isEmployee: true });

    const parts = await database.db
      .select({ id: membershipParts.id, status: membershipParts.status })
      .from(membershipParts)
      .where(and(eq(membershipParts.membershipId, membership.id)));
    expect(Object.fromEntries(parts.map((p) => [p.id, p.status]))).toEqual({
      [valve.id]: "withdrawn",
      [paint.id]: "withdrawn",
    });
    expect((await membershipCounters(database.db)).partsAwaitingApproval).toBe(0);
    expect((await report()).parts.pendingCount).toBe(0);
    expect((await report()).parts.pendingCents).toBe(0);
    await expect(decidePart(member.id, valve.id, "approve")).rejects.toThrow(
      "not waiting for your approval",
    );
  });
});
