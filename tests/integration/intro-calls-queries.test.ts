import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { introCalls } from "~/db/schema";
import { listUpcomingIntroCalls } from "~/features/intro-calls/queries.server";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

let database: TestDatabase;

beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe("listUpcomingIntroCalls", () => {
  it("lists calls that have not ended yet, soonest first", async () => {
    const now = new Date("2026-11-23T15:00:00Z");
    const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
    await database.db.insert(introCalls).values([
      { name: "Later Caller", email: "later@example.com", phone: "4045550100", startsAt: at(120) },
      { name: "Past Caller", email: "past@example.com", phone: "4045550101", startsAt: at(-60) },
      { name: "Soon Caller", email: "soon@example.com", phone: "4045550102", startsAt: at(15) },
      { name: "Now Caller", email: "now@example.com", phone: "4045550103", startsAt: at(-5) },
    ]);
    const upcoming = await listUpcomingIntroCalls({ now });
    expect(upcoming.map((call) => call.name)).toEqual([
      "Now Caller",
      "Soon Caller",
      "Later Caller",
    ]);
    expect(upcoming[0]).toMatchObject({ email: "now@example.com", phone: "4045550103" });
  });
});
