import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, openDatabase, type DatabaseHandle } from "~/db/client.server";
import { membershipStatement, type StatementEntry } from "~/features/memberships/statement.server";
import {
  releaseVisitMinutes,
  reserveVisitMinutes,
} from "~/features/memberships/visit-minutes.server";
import { startMembership } from "~/features/memberships/start.server";
import { createAppointment, createHome, createUser } from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";
import { addDays, businessNow } from "~/lib/business-calendar";

/*
 * The statement reads in the ledgers' own order (ADR 041): each running balance follows from
 * the row of its ledger below it. A row's time is when its transaction began; parallel
 * bookings on PostgreSQL commit in another order, and sorting by time showed 29 of 88 money
 * rows with a balance that did not follow from the row below (issue 25 item 7).
 */

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

/** Rows of a statement (newest first) whose balance does not follow from the row below. */
function brokenRows(statement: StatementEntry[]) {
  const broken: string[] = [];
  const below = { money: 0, hours: 0 };
  for (const entry of [...statement].reverse()) {
    if (entry.ledger === "money") {
      if (entry.balanceCents !== below.money + entry.amountCents!) broken.push(entry.key);
      below.money = entry.balanceCents!;
    } else {
      if (entry.minutesBalance !== below.hours + entry.minutes!) broken.push(entry.key);
      below.hours = entry.minutesBalance!;
    }
  }
  return broken;
}

describe.runIf(testDatabaseKind() === "postgres")("after parallel bookings (PostgreSQL)", () => {
  it("every running balance follows from the row below, in both ledgers", async () => {
    const today = businessNow().date;
    const staff = await createUser(database.db, {
      email: "staff@example.com",
      password: "x",
      firstName: "Dana",
      lastName: "Whitfield",
      isEmployee: true,
    });
    const member = await createUser(database.db, {
      email: "member@example.com",
      password: "x",
      firstName: "Maria",
      lastName: "Alvarez",
    });
    const home = await createHome(database.db, member.id);
    const m = await startMembership(
      { customerId: member.id, plan: "total", billing: "annual", startDate: today },
      staff.id,
    );

    /** Books and reserves in one transaction, as the booking does; refusals are expected. */
    const book = (n: number, asExtra: boolean) =>
      database.db.transaction(async (tx) => {
        const appointment = await createAppointment(tx, home, {
          // A week apart, over 20 weeks: every month's visit allowance is on the hours ledger,
          // whatever the day (in one month, its allowance left the hours ledger 9 rows).
          scheduledDate: addDays(today, 2 + (n % 20) * 7),
          startTime: "09:00",
          endTime: "10:45",
          tasks: ["Fix the faucet"],
        });
        await reserveVisitMinutes(tx, appointment.id, { asExtra, today });
        return appointment.id;
      });
    // Three rounds of 30 parallel bookings (a third as extra visits, on the money ledger),
    // each followed by parallel cancellations of half of what it booked.
    for (let round = 0; round < 3; round++) {
      const booked = await Promise.allSettled(
        Array.from({ length: 30 }, (_, n) => book(n, n % 3 === 0)),
      );
      const ids = booked.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
      await Promise.all(
        ids
          .filter((_, i) => i % 2 === 0)
          .map((id) =>
            database.db.transaction((tx) => releaseVisitMinutes(tx, id, { actorId: staff.id })),
          ),
      );
    }

    // Enough rows on each ledger to have raced: how many bookings the bank takes depends on the
    // day (the month's allowance, the hours booked ahead), so the floor is a modest one.
    const statement = await membershipStatement(m.id);
    expect(statement.filter((e) => e.ledger === "money").length).toBeGreaterThan(10);
    expect(statement.filter((e) => e.ledger === "hours").length).toBeGreaterThan(10);
    expect(brokenRows(statement)).toEqual([]);
  });
});

describe("the migration that numbers the ledgers", () => {
  let handle: DatabaseHandle;
  let dropDatabase = async () => {};
  let before: string;

  beforeAll(async () => {
    // The migrations before the one that numbers the ledgers, as a database written before it
    // holds them.
    before = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-migrations-"));
    fs.mkdirSync(path.join(before, "meta"));
    const journal = JSON.parse(
      fs.readFileSync(path.join(MIGRATIONS_DIR, "meta/_journal.json"), "utf8"),
    ) as { entries: { idx: number; tag: string }[] };
    const numbering = journal.entries.find((e) => e.tag.endsWith("_membership_ledger_order"))!;
    const old = journal.entries.filter((e) => e.idx < numbering.idx);
    for (const entry of old)
      fs.copyFileSync(
        path.join(MIGRATIONS_DIR, `${entry.tag}.sql`),
        path.join(before, `${entry.tag}.sql`),
      );
    fs.writeFileSync(
      path.join(before, "meta/_journal.json"),
      JSON.stringify({ ...journal, entries: old }),
    );
    if (testDatabaseKind() === "pglite") {
      handle = await openDatabase({ memory: true });
    } else {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      const name = `test_${crypto.randomBytes(6).toString("hex")}`;
      await admin.connect();
      await admin.query(`create database ${name}`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
      dropDatabase = async () => {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      };
    }
  });

  afterAll(async () => {
    await handle?.close();
    await dropDatabase();
    fs.rmSync(before, { recursive: true, force: true });
  });

  it("numbers rows written before it in each ledger's order, interleaved by time", async () => {
    const db = handle.db;
    await migrate(db, { migrationsFolder: before });
    await db.execute(sql`insert into "user" (id, name, email) values ('u1', 'Maria', 'm@x.org')`);
    await db.execute(
      sql`insert into homes (id, customer_id, address, city, state, zip_code) values ('00000000-0000-4000-8000-000000000001', 'u1', '1 Main St', 'Atlanta', 'GA', '30303')`,
    );
    await db.execute(
      sql`insert into memberships (id, customer_id, home_id, plan, plan_name, monthly_price_cents, minutes_per_year, visits_per_year, billing, start_date) values ('00000000-0000-4000-8000-000000000002', 'u1', '00000000-0000-4000-8000-000000000001', 'total', 'Total', 100, 1260, 12, 'monthly', '2026-01-01')`,
    );
    const m = "00000000-0000-4000-8000-000000000002";
    // Written by parallel transactions: the second money row's transaction began earlier
    // (its time) but took the membership's lock later (its id, its balance).
    await db.execute(sql`insert into membership_minutes_ledger (membership_id, kind, minutes, balance_after, note, created_at) values
      (${m}, 'accrual', 105, 105, 'h1', '2026-01-01T10:00:00Z')`);
    await db.execute(sql`insert into membership_money_ledger (membership_id, kind, amount_cents, balance_after, description, created_at) values
      (${m}, 'membership_charge', 100, 100, 'm1', '2026-01-01T10:00:02Z'),
      (${m}, 'extra_visit', 15000, 15100, 'm2', '2026-01-01T10:00:01Z')`);
    await db.execute(sql`insert into membership_minutes_ledger (membership_id, kind, minutes, balance_after, note, created_at) values
      (${m}, 'reserve', -105, 0, 'h2', '2026-01-01T10:00:03Z')`);

    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    const numbered = await db.execute<{ label: string; seq: string }>(sql`
      select note as label, seq from membership_minutes_ledger
      union all select description, seq from membership_money_ledger order by seq`);
    expect(numbered.rows.map((r) => [r.label, Number(r.seq)])).toEqual([
      ["h1", 1],
      ["m1", 2],
      ["m2", 3],
      ["h2", 4],
    ]);
    // New rows continue the numbering, and the ledgers are append-only again.
    await db.execute(sql`insert into membership_money_ledger (membership_id, kind, amount_cents, balance_after, description) values
      (${m}, 'correction', -15100, 0, 'm3')`);
    const [next] = (
      await db.execute<{ seq: string }>(
        sql`select seq from membership_money_ledger where description = 'm3'`,
      )
    ).rows;
    expect(Number(next.seq)).toBe(5);
    await expect(
      db.execute(sql`update membership_money_ledger set amount_cents = 1 where description = 'm1'`),
    ).rejects.toThrow();
  });
});
