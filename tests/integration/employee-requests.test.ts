import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { serviceRequests, user } from "~/db/schema";
import { listCustomers } from "~/features/customers/queries.server";
import {
  countMatchingRequests,
  getRequestDetail,
  listRequests,
  requestCounters,
  setRequestNotes,
  setRequestStatus,
} from "~/features/service-requests/staff-queries.server";
import { REQUESTS_PAGE_SIZE } from "~/features/service-requests/staff-list";
import {
  createAppointment,
  createHome,
  createServiceRequest,
  createUser,
} from "../../server/seed/factories";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../support/test-database";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

async function resetData() {
  await database.db.execute(sql`truncate "user", service_requests cascade`);
}

let seq = 0;
async function customer(firstName: string, lastName: string) {
  seq++;
  const account = await createUser(database.db, {
    email: `c${seq}-${Date.now()}@example.com`,
    password: "x",
    firstName,
    lastName,
  });
  const home = await createHome(database.db, account.id, { city: "Decatur" });
  return { account, home };
}

/** Actual counts, for comparing with the trigger-maintained table. */
async function actualCounts() {
  const rows = await database.db
    .select({ status: serviceRequests.status, n: sql<number>`count(*)::int` })
    .from(serviceRequests)
    .groupBy(serviceRequests.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

const TODAY = "2026-11-21";

describe("request counters", () => {
  beforeEach(resetData);

  it("follow inserts, status changes, deletes, cascades and truncation", async () => {
    const { account, home } = await customer("Maria", "Alvarez");
    expect(await requestCounters(TODAY, database.db)).toMatchObject({
      new: 0,
      reviewed: 0,
      scheduled: 0,
      complete: 0,
      total: 0,
    });
    const a = await createServiceRequest(database.db, home, { title: "A" });
    await createServiceRequest(database.db, home, { title: "B", status: "reviewed" });
    await createServiceRequest(database.db, home, { title: "C", status: "complete" });
    expect(await requestCounters(TODAY, database.db)).toMatchObject({
      new: 1,
      reviewed: 1,
      complete: 1,
      total: 3,
    });

    await setRequestStatus(a.id, "scheduled", database.db);
    expect(await requestCounters(TODAY, database.db)).toMatchObject({ new: 0, scheduled: 1 });

    // A bulk statement that changes several rows at once.
    await database.db.update(serviceRequests).set({ status: "complete" });
    expect(await requestCounters(TODAY, database.db)).toMatchObject({
      new: 0,
      reviewed: 0,
      scheduled: 0,
      complete: 3,
      total: 3,
    });

    // Deleting the customer cascades to their requests, and the counts follow.
    await database.db.delete(user).where(sql`${user.id} = ${account.id}`);
    expect(await requestCounters(TODAY, database.db)).toMatchObject({ complete: 0, total: 0 });

    const other = await customer("James", "Okafor");
    await createServiceRequest(database.db, other.home, { title: "D" });
    await database.db.execute(sql`truncate service_requests cascade`);
    expect(await requestCounters(TODAY, database.db)).toMatchObject({ new: 0, total: 0 });
  });

  it("count approved appointments from today on as Scheduled", async () => {
    const { home } = await customer("Maria", "Alvarez");
    const base = { startTime: "09:00", endTime: "10:00", tasks: ["Fix"] };
    await createAppointment(database.db, home, { ...base, scheduledDate: "2026-11-20" });
    await createAppointment(database.db, home, { ...base, scheduledDate: TODAY });
    await createAppointment(database.db, home, { ...base, scheduledDate: "2027-01-05" });
    expect((await requestCounters(TODAY, database.db)).scheduledAppointments).toBe(2);
  });

  it.runIf(testDatabaseKind() === "postgres")(
    "stay exact under concurrent changes (PostgreSQL)",
    async () => {
      const concurrent = await createTestDatabase({ kind: "postgres", poolSize: 12 });
      try {
        const made = await createUser(concurrent.db, {
          email: `race-${Date.now()}@example.com`,
          password: "x",
          firstName: "Race",
          lastName: "Two",
        });
        const raceHome = await createHome(concurrent.db, made.id);
        const requests = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            createServiceRequest(concurrent.db, raceHome, { title: `R${i}` }),
          ),
        );
        const statuses = ["new", "reviewed", "scheduled", "complete"] as const;
        await Promise.all(
          Array.from({ length: 120 }, (_, i) =>
            setRequestStatus(
              requests[i % requests.length].id,
              statuses[(i * 7) % 4],
              concurrent.db,
            ),
          ),
        );
        const counters = await requestCounters(TODAY, concurrent.db);
        const rows = await concurrent.db
          .select({ status: serviceRequests.status, n: sql<number>`count(*)::int` })
          .from(serviceRequests)
          .groupBy(serviceRequests.status);
        const actual = Object.fromEntries(rows.map((r) => [r.status, r.n]));
        for (const status of statuses) expect(counters[status]).toBe(actual[status] ?? 0);
        expect(counters.total).toBe(20);
      } finally {
        await concurrent.drop();
      }
    },
  );
});

describe("listRequests", () => {
  beforeEach(resetData);

  async function seedMany(count: number) {
    const { home } = await customer("Maria", "Alvarez");
    const start = Date.UTC(2026, 0, 1);
    for (let i = 0; i < count; i++) {
      await createServiceRequest(database.db, home, {
        title: `Task ${String(i).padStart(3, "0")}`,
        description: "x".repeat(100),
        status: i % 2 ? "reviewed" : "new",
        createdAt: new Date(start + i * 60_000),
      });
    }
    return home;
  }

  it("pages newest first in both directions without gaps or repeats", async () => {
    const total = REQUESTS_PAGE_SIZE * 2 + 3;
    await seedMany(total);
    const first = await listRequests({}, database.db);
    expect(first.rows).toHaveLength(REQUESTS_PAGE_SIZE);
    expect(first.rows[0].title).toBe(`Task ${String(total - 1).padStart(3, "0")}`);
    expect(first.newer).toBeNull();
    expect(first.older).not.toBeNull();
    expect(first.rows[0].descriptionPreview).toHaveLength(80);
    expect(first.rows[0].descriptionTruncated).toBe(true);

    const second = await listRequests({ after: first.older! }, database.db);
    const third = await listRequests({ after: second.older! }, database.db);
    expect(third.rows).toHaveLength(3);
    expect(third.older).toBeNull();
    const seen = [...first.rows, ...second.rows, ...third.rows].map((r) => r.title);
    expect(new Set(seen).size).toBe(total);
    expect(seen).toEqual([...seen].sort().reverse());

    const back = await listRequests({ before: third.newer! }, database.db);
    expect(back.rows.map((r) => r.id)).toEqual(second.rows.map((r) => r.id));
    const backToStart = await listRequests({ before: back.newer! }, database.db);
    expect(backToStart.rows.map((r) => r.id)).toEqual(first.rows.map((r) => r.id));
    expect(backToStart.newer).toBeNull();
  });

  it("filters by status", async () => {
    await seedMany(10);
    const page = await listRequests({ status: "reviewed" }, database.db);
    expect(page.rows).toHaveLength(5);
    expect(page.rows.every((r) => r.status === "reviewed")).toBe(true);
  });

  it("searches the title and the customer's name, case-insensitively", async () => {
    const maria = await customer("Maria", "Alvarez");
    const james = await customer("James", "Okafor");
    await createServiceRequest(database.db, maria.home, { title: "Fix leaky faucet" });
    await createServiceRequest(database.db, maria.home, { title: "Hang shelves" });
    await createServiceRequest(database.db, james.home, { title: "Clean gutters" });
    await createServiceRequest(database.db, james.home, { title: "Replace 50% of tiles" });

    const titles = async (search: string) =>
      (await listRequests({ search }, database.db)).rows.map((r) => r.title).sort();
    expect(await titles("FAUCET")).toEqual(["Fix leaky faucet"]);
    expect(await titles("james oka")).toEqual(["Clean gutters", "Replace 50% of tiles"]);
    expect(await titles("Maria Alvarez")).toEqual(["Fix leaky faucet", "Hang shelves"]);
    // Wildcards are literal characters, not patterns.
    expect(await titles("50%")).toEqual(["Replace 50% of tiles"]);
    expect(await titles("%")).toEqual(["Replace 50% of tiles"]);
    expect(await titles("nothing like this")).toEqual([]);
    const filtered = await listRequests({ search: "maria", status: "reviewed" }, database.db);
    expect(filtered.rows).toEqual([]);
  });

  it("folds quotes and accents on both sides (issue 32)", async () => {
    const obrien = await customer("Siobhan", "O’Brien");
    const nunez = await customer("José", "Núñez");
    await createServiceRequest(database.db, obrien.home, { title: "Rehang the door" });
    await createServiceRequest(database.db, nunez.home, { title: "Paint the café wall" });

    const titles = async (search: string) =>
      (await listRequests({ search }, database.db)).rows.map((r) => r.title).sort();
    // A straight apostrophe finds the phone's curly one, and the other way round.
    expect(await titles("O'Brien")).toEqual(["Rehang the door"]);
    expect(await titles("siobhan o’brien")).toEqual(["Rehang the door"]);
    // No accents finds accents, and accents find plain letters.
    expect(await titles("Nunez")).toEqual(["Paint the café wall"]);
    expect(await titles("jose nunez")).toEqual(["Paint the café wall"]);
    expect(await titles("CAFE")).toEqual(["Paint the café wall"]);
    expect(await titles("Páint")).toEqual(["Paint the café wall"]);
    expect(await countMatchingRequests({ search: "nuñez" }, 10, database.db)).toBe(1);
    // A wildcard made by folding (a full-width percent sign) is still a literal character.
    expect(await titles("％")).toEqual([]);

    const customers = async (search: string) =>
      (await listCustomers({ search, today: "2026-01-01" }, database.db)).customers.map(
        (c) => c.lastName,
      );
    expect(await customers("obrien")).toEqual([]);
    expect(await customers("o'brien")).toEqual(["O’Brien"]);
    expect(await customers("Nunez")).toEqual(["Núñez"]);
  });

  it("pages through search results", async () => {
    await seedMany(REQUESTS_PAGE_SIZE + 5);
    const first = await listRequests({ search: "task" }, database.db);
    expect(first.rows).toHaveLength(REQUESTS_PAGE_SIZE);
    const next = await listRequests({ search: "task", after: first.older! }, database.db);
    expect(next.rows).toHaveLength(5);
    expect(next.older).toBeNull();
  });
});

describe("request detail, status and notes", () => {
  beforeEach(resetData);

  it("reads the request with its customer and home, and saves status and notes", async () => {
    const { home } = await customer("Maria", "Alvarez");
    const request = await createServiceRequest(database.db, home, {
      title: "Fix leaky faucet",
      priority: "next",
    });
    const detail = await getRequestDetail(request.id, database.db);
    expect(detail).toMatchObject({
      title: "Fix leaky faucet",
      customerFirstName: "Maria",
      city: "Decatur",
      state: "GA",
      employeeNotes: null,
      photos: [],
    });
    expect(await setRequestStatus(request.id, "reviewed", database.db)).toBe(true);
    expect(await setRequestNotes(request.id, "Bring a 3/8 wrench", database.db)).toBe(true);
    expect(await getRequestDetail(request.id, database.db)).toMatchObject({
      status: "reviewed",
      employeeNotes: "Bring a 3/8 wrench",
    });
    expect(await setRequestNotes(request.id, "   ", database.db)).toBe(true);
    expect((await getRequestDetail(request.id, database.db))?.employeeNotes).toBeNull();

    const missing = "00000000-0000-4000-8000-000000000000";
    expect(await getRequestDetail(missing, database.db)).toBeNull();
    expect(await setRequestStatus(missing, "new", database.db)).toBe(false);
    expect(await setRequestNotes(missing, "x", database.db)).toBe(false);
    expect(await actualCounts()).toEqual({ reviewed: 1 });
  });
});
