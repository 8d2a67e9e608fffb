import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { specialists } from "~/db/schema";
import { newActionKey } from "~/lib/action-keys.server";
import { action } from "~/routes/employee.specialists";
import { createUser } from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * 'Specialists' forms through their route's action (ADR 098): a refusal names every refused
 * field, so the page marks each, and a field sent twice is refused in the schema's words;
 * nothing is added either way.
 */

const session = vi.hoisted(() => ({ staffId: "" }));
vi.mock("~/lib/session.server", async (importOriginal) => {
  const original = await importOriginal<Record<string, unknown>>();
  const staff = async () => ({
    id: session.staffId,
    isEmployee: true,
    isHandyman: false,
    hasHome: false,
  });
  return { ...original, requireStaffForAction: staff, requireEmployee: staff };
});

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", specialists, action_keys cascade`);
  const staff = await createUser(database.db, {
    email: "office@example.com",
    password: "Staff-pass-2026!",
    firstName: "Sam",
    lastName: "Office",
    isEmployee: true,
  });
  session.staffId = staff.id;
});

type Answer = {
  ok: boolean;
  intent: string;
  message: string;
  result?: { error?: Record<string, string[]> };
};

async function post(fields: [string, string][]) {
  const answer = (await action({
    request: new Request("http://localhost/employee/specialists", {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { accept: "application/json" },
    }),
    params: {},
    context: {},
  } as never)) as unknown as { data: Answer; init?: { status?: number } };
  return { ...answer.data, status: answer.init?.status ?? 200 };
}

const added = async () => (await database.db.select().from(specialists)).length;

describe(`'Specialists' forms (${testDatabaseKind()})`, () => {
  it("'Add specialist' refused names each refused field and adds nothing", async () => {
    const answer = await post([
      ["intent", "add"],
      ["key", newActionKey()],
      ["trade", "plumber"],
      ["company", "  "],
      ["email", "not-an-address"],
      ["referralFee", "ten"],
    ]);
    expect(answer).toMatchObject({
      ok: false,
      intent: "add",
      status: 400,
      message: "Please enter the company",
    });
    expect(answer.result?.error).toEqual({
      company: ["Please enter the company"],
      email: ["Please enter a valid e-mail address"],
      referralFee: ["Please enter the referral fee in dollars"],
    });
    expect(await added()).toBe(0);
  });

  it("a field sent twice is refused, not one of its values kept", async () => {
    const answer = await post([
      ["intent", "add"],
      ["key", newActionKey()],
      ["trade", "plumber"],
      ["company", "Peach Plumbing"],
      ["company", "Other Plumbing"],
    ]);
    expect(answer).toMatchObject({ ok: false, message: "Please enter the company" });
    expect(answer.result?.error).toEqual({ company: ["Please enter the company"] });
    expect(await added()).toBe(0);
  });

  it("a valid form is added once; a referral's status refused names its field", async () => {
    const answer = await post([
      ["intent", "add"],
      ["key", newActionKey()],
      ["trade", "electrician"],
      ["company", "Spark Electric"],
      ["referralFee", "25"],
    ]);
    expect(answer).toMatchObject({ ok: true, message: "Spark Electric added." });
    expect(await added()).toBe(1);
    const status = await post([
      ["intent", "status"],
      ["referralId", crypto.randomUUID()],
      ["status", "paid-twice"],
    ]);
    expect(status).toMatchObject({
      ok: false,
      intent: "status",
      message: "Please choose a status",
    });
    expect(status.result?.error).toEqual({ status: ["Please choose a status"] });
  });
});
