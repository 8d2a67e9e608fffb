import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { profiles } from "~/db/schema";
import {
  LAST_OFFICE_ACCOUNT_MESSAGE,
  LastOfficeAccountError,
  setStaffRole,
} from "~/features/accounts/employees.server";
import { createUser } from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * Issue 40, item 15: the last office account cannot lose the office role (nobody would be
 * left to run the office), even when two office accounts demote each other at the same moment.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user" cascade`);
});

let n = 0;
const office = () =>
  createUser(database.db, {
    email: `office${++n}@example.com`,
    password: "x",
    firstName: "Sam",
    lastName: `Office ${n}`,
    isEmployee: true,
  });
const roleOf = async (id: string) =>
  (
    await database.db
      .select({ role: profiles.staffRole })
      .from(profiles)
      .where(eq(profiles.userId, id))
  )[0]!.role;

describe(`the last office account (${testDatabaseKind()})`, () => {
  it("keeps the office role, with a message saying why; another office account may lose it", async () => {
    const only = await office();
    const handyman = await createUser(database.db, {
      email: `dana${++n}@example.com`,
      password: "x",
      firstName: "Dana",
      lastName: "Whitfield",
      isEmployee: true,
      staffRole: "handyman",
    });
    await expect(setStaffRole(only.id, "handyman")).rejects.toThrow(LastOfficeAccountError);
    await expect(setStaffRole(only.id, "handyman")).rejects.toThrow(LAST_OFFICE_ACCOUNT_MESSAGE);
    expect(await roleOf(only.id)).toBe("office");
    // Choosing the role it already has is no change.
    expect(await setStaffRole(only.id, "office")).toBe(true);

    // Once the handyman is office staff too, either may become a handyman, but not both.
    expect(await setStaffRole(handyman.id, "office")).toBe(true);
    expect(await setStaffRole(only.id, "handyman")).toBe(true);
    await expect(setStaffRole(handyman.id, "handyman")).rejects.toThrow(LastOfficeAccountError);
    expect(await roleOf(handyman.id)).toBe("office");
  });

  it("two office accounts demoting each other at once: one succeeds, one office account is left", async () => {
    for (let round = 0; round < 3; round++) {
      await database.db.execute(sql`truncate "user" cascade`);
      const [a, b] = [await office(), await office()];
      const results = await Promise.allSettled([
        setStaffRole(a!.id, "handyman"),
        setStaffRole(b!.id, "handyman"),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(refused.reason).toBeInstanceOf(LastOfficeAccountError);
      const roles = [await roleOf(a!.id), await roleOf(b!.id)].sort();
      expect(roles).toEqual(["handyman", "office"]);
    }
  });
});
