import { asc, eq, sql } from "drizzle-orm";
import { newActionKey } from "~/lib/action-keys.server";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  appointments,
  membershipMinutesLedger,
  membershipMoneyLedger,
  memberships,
  membershipVisits,
} from "~/db/schema";
import { TRANSACTION_ATTEMPTS } from "~/db/retry.server";
import { addDays, businessToday } from "~/lib/business-calendar";
import { action as membershipAction } from "~/routes/dashboard";
import { action as visitAction } from "~/routes/dashboard.visits.$visitId";
import {
  createHome,
  createMemberVisit,
  createMembership,
  createUser,
} from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * Transactions PostgreSQL aborts for a conflict (40001, 40P01) are run again in one place, the
 * database handle (ADR 040). The race of issue 25 item 6: a member cancels a visit while the
 * same member cancels the membership, whose cancellation cancels that visit too. The two lock
 * the calendar row, the appointment and the membership in opposite orders (ADR 017), and four
 * pairs in ten answered 500 on a deadlock.
 */

// Who is signed in: the test names the member per request (x-test-user).
vi.mock("~/lib/session.server", async (importOriginal) => {
  const original = await importOriginal<Record<string, unknown>>();
  const member = async (request: Request) => ({
    id: request.headers.get("x-test-user") ?? "",
    isEmployee: false,
    hasHome: true,
  });
  return { ...original, getSessionUser: member, requireCustomerForAction: member };
});

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox cascade`);
});

describe("the retry of conflicting transactions", () => {
  const conflict = (code: string) =>
    Object.assign(new Error("Failed query"), {
      cause: Object.assign(new Error("deadlock"), { code }),
    });

  it("runs a transaction aborted for a deadlock or a serialization failure again", async () => {
    for (const code of ["40P01", "40001"]) {
      let runs = 0;
      const result = await database.db.transaction(async (tx) => {
        runs++;
        await tx.execute(sql`select 1`);
        if (runs < 3) throw conflict(code);
        return "done";
      });
      expect(result).toBe("done");
      expect(runs).toBe(3);
    }
  });

  it("gives up after a bounded number of attempts, and never retries other errors", async () => {
    let runs = 0;
    await expect(
      database.db.transaction(async () => {
        runs++;
        throw conflict("40P01");
      }),
    ).rejects.toThrow("Failed query");
    expect(runs).toBe(TRANSACTION_ATTEMPTS);

    runs = 0;
    await expect(
      database.db.transaction(async () => {
        runs++;
        throw Object.assign(new Error("unique"), { code: "23505" });
      }),
    ).rejects.toThrow("unique");
    expect(runs).toBe(1);
  });
});

// PGlite runs one transaction at a time: the race itself is proven on PostgreSQL.
describe.runIf(testDatabaseKind() === "postgres")("races on PostgreSQL", () => {
  const PAIRS = 20;

  async function memberWithVisit(n: number) {
    const handyman = await createUser(database.db, {
      email: `handyman${n}@example.com`,
      password: "x",
      firstName: "Dana",
      lastName: "Reyes",
      isEmployee: true,
    });
    const member = await createUser(database.db, {
      email: `member${n}@example.com`,
      password: "x",
      firstName: "Maria",
      lastName: "Alvarez",
    });
    const home = await createHome(database.db, member.id);
    const m = await createMembership(database.db, member.id, {
      plan: "complete",
      startDate: businessToday(),
    });
    // A week ahead: the member may still cancel it (more than 24 hours before its start).
    const { appointment } = await createMemberVisit(database.db, home, {
      scheduledDate: addDays(businessToday(), 7),
      startTime: "09:00",
      endTime: "10:45",
      assignedEmployeeId: handyman.id,
      createdBy: member.id,
      tasks: ["Fix the gate"],
    });
    return { memberId: member.id, membershipId: m.id, appointmentId: appointment.id };
  }

  function post(url: string, memberId: string, fields: Record<string, string>) {
    return new Request(`http://localhost${url}`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { accept: "application/json", "x-test-user": memberId },
    });
  }

  /** The HTTP status a route's answer becomes: a thrown error is the 500 a person would see. */
  async function status(run: () => Promise<unknown>) {
    try {
      const answer = await run();
      if (answer instanceof Response) return { status: answer.status, answer };
      const init = (answer as { init?: { status?: number } }).init;
      return { status: init?.status ?? 200, answer };
    } catch (error) {
      if (error instanceof Response) return { status: error.status, answer: error };
      return { status: 500, answer: error };
    }
  }

  /** Each ledger row follows from the one before, and the membership holds the last balance. */
  async function ledgerConsistent(membershipId: string) {
    const [m] = await database.db
      .select()
      .from(memberships)
      .where(eq(memberships.id, membershipId));
    const minutes = await database.db
      .select()
      .from(membershipMinutesLedger)
      .where(eq(membershipMinutesLedger.membershipId, membershipId))
      .orderBy(asc(membershipMinutesLedger.id));
    const money = await database.db
      .select()
      .from(membershipMoneyLedger)
      .where(eq(membershipMoneyLedger.membershipId, membershipId))
      .orderBy(asc(membershipMoneyLedger.id));
    let bank = 0;
    for (const row of minutes) {
      bank += row.minutes;
      expect(row.balanceAfter).toBe(bank);
    }
    let owed = 0;
    for (const row of money) {
      owed += row.amountCents;
      expect(row.balanceAfter).toBe(owed);
    }
    expect(m.minutesAvailable).toBe(bank);
    expect(m.balanceCents).toBe(owed);
    return { m, minutes, money };
  }

  it(`${PAIRS} parallel pairs of a visit cancel and a membership cancel: no 5xx, every ledger consistent`, async () => {
    const members = [];
    for (let n = 0; n < PAIRS; n++) members.push(await memberWithVisit(n));

    const outcomes = await Promise.all(
      members.flatMap((x) => [
        status(() =>
          visitAction({
            request: post(`/dashboard/visits/${x.appointmentId}`, x.memberId, {
              intent: "cancel",
            }),
            params: { visitId: x.appointmentId },
            context: {},
          } as never),
        ),
        status(() =>
          membershipAction({
            request: post("/dashboard?tab=membership", x.memberId, {
              intent: "cancel",
              key: newActionKey(),
            }),
            params: {},
            context: {},
          } as never),
        ),
      ]),
    );

    const statuses = outcomes.map((o) => o.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // Every membership cancel succeeded: none was answered 'could not be canceled'.
    for (const [index, outcome] of outcomes.entries()) {
      if (index % 2 === 1) {
        expect(outcome.status).toBe(200);
        expect((outcome.answer as { data: { ok: boolean; message: string } }).data).toMatchObject({
          ok: true,
          message: "Your membership is canceled. What was settled is shown below.",
        });
      } else {
        // The visit cancel either won, or found the visit canceled with the membership (409).
        expect([200, 409]).toContain(outcome.status);
      }
    }

    for (const x of members) {
      const { m, minutes } = await ledgerConsistent(x.membershipId);
      expect(m.status).toBe("canceled");
      // The visit's block came back once, whoever canceled it, and the refund took the rest.
      expect(
        minutes.filter((e) => e.kind === "release" && e.appointmentId === x.appointmentId),
      ).toHaveLength(1);
      expect(m.minutesAvailable).toBe(0);
      const [visit] = await database.db
        .select({ status: appointments.status })
        .from(appointments)
        .where(eq(appointments.id, x.appointmentId));
      expect(visit.status).toBe("canceled");
      const [held] = await database.db
        .select({ status: membershipVisits.status })
        .from(membershipVisits)
        .where(eq(membershipVisits.appointmentId, x.appointmentId));
      expect(held.status).toBe("released");
    }
  });
});
