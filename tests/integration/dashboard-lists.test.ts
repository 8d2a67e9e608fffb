import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { requestPhotos, serviceRequests } from "~/db/schema";
import {
  cardWeight,
  customerRequestSizes,
  customerRequestsById,
  listCustomerRequestPages,
  PAGE_CARDS,
  PAGE_WEIGHT,
  paginate,
} from "~/features/service-requests/service-requests.server";
import { createHome, createServiceRequest, createUser } from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * The dashboard's lists a page at a time (ADR 031): Next, Later and Completed Work each paged
 * on its own, at most PAGE_CARDS cards a page and fewer when they are heavy.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

let counter = 0;
async function member() {
  counter += 1;
  const user = await createUser(db(), {
    email: `lists-${counter}-${Date.now()}@example.com`,
    password: "Sturdy-Pass-2026!",
    firstName: "Lee",
    lastName: "Lists",
  });
  return createHome(db(), user.id);
}

const FIRST = { next: 1, later: 1, completed: 1 };

describe("listCustomerRequestPages", () => {
  it("pages each list on its own, with the whole list's count, in display order", async () => {
    const home = await member();
    for (let i = 0; i < 23; i++) {
      await createServiceRequest(db(), home, { title: `Next ${i}`, priority: "next", position: i });
    }
    for (let i = 0; i < 4; i++) {
      await createServiceRequest(db(), home, {
        title: `Later ${i}`,
        priority: "later",
        position: i,
      });
    }
    const first = await listCustomerRequestPages(home.customerId, FIRST);
    expect(first.next).toMatchObject({ page: 1, pages: 3, total: 23 });
    expect(first.next.items.map((r) => r.title)).toEqual(
      Array.from({ length: PAGE_CARDS }, (_, i) => `Next ${i}`),
    );
    expect(first.later).toMatchObject({ page: 1, pages: 1, total: 4 });
    expect(first.later.items).toHaveLength(4);
    expect(first.completed).toMatchObject({ items: [], page: 1, pages: 1, total: 0 });

    const third = await listCustomerRequestPages(home.customerId, { ...FIRST, next: 3 });
    expect(third.next.items.map((r) => r.title)).toEqual(["Next 20", "Next 21", "Next 22"]);
    // The other lists keep their own page.
    expect(third.later.items).toHaveLength(4);

    // A page past the end is the last page.
    const past = await listCustomerRequestPages(home.customerId, { ...FIRST, next: 99 });
    expect(past.next.page).toBe(3);
    expect(past.next.items.map((r) => r.title)).toEqual(["Next 20", "Next 21", "Next 22"]);
  });

  it("lists completed work apart, newest first, and never on the to-do pages", async () => {
    const home = await member();
    const day = 86_400_000;
    for (let i = 0; i < 12; i++) {
      const row = await createServiceRequest(db(), home, {
        title: `Done ${i}`,
        status: "complete",
        priority: i % 2 ? "next" : "later",
        position: i,
      });
      await db()
        .update(serviceRequests)
        .set({ updatedAt: new Date(Date.UTC(2026, 0, 1) + i * day) })
        .where(eq(serviceRequests.id, row.id));
    }
    await createServiceRequest(db(), home, { title: "Still open", priority: "next" });
    const lists = await listCustomerRequestPages(home.customerId, FIRST);
    expect(lists.next.items.map((r) => r.title)).toEqual(["Still open"]);
    expect(lists.later.total).toBe(0);
    expect(lists.completed).toMatchObject({ page: 1, pages: 2, total: 12 });
    expect(lists.completed.items.map((r) => r.title)).toEqual(
      Array.from({ length: PAGE_CARDS }, (_, i) => `Done ${11 - i}`),
    );
    const older = await listCustomerRequestPages(home.customerId, { ...FIRST, completed: 2 });
    expect(older.completed.items.map((r) => r.title)).toEqual(["Done 1", "Done 0"]);
  });

  it("puts fewer heavy cards on a page: long texts and many photos", async () => {
    const home = await member();
    // 5,000 characters that HTML and the page's data both escape.
    const description = '&<>"'.repeat(1_250);
    for (let i = 0; i < 8; i++) {
      const row = await createServiceRequest(db(), home, {
        title: `Heavy ${i} & "quoted"`,
        description,
        priority: "later",
        position: i,
      });
      await db()
        .insert(requestPhotos)
        .values(
          Array.from({ length: 20 }, (_, k) => ({
            requestId: row.id,
            filePath: `request-photos/${row.id}/${k}.jpg`,
            fileName: `${k}.jpg`,
            fileSize: 1000,
            contentType: "image/jpeg",
          })),
        );
    }
    const lists = await listCustomerRequestPages(home.customerId, FIRST);
    expect(lists.later.total).toBe(8);
    expect(lists.later.items.length).toBeGreaterThan(0);
    expect(lists.later.items.length).toBeLessThan(PAGE_CARDS);
    expect(lists.later.items.every((r) => r.photos.length === 20)).toBe(true);
    // Every page of the list, walked through: each card on exactly one page.
    const seen: string[] = [];
    for (let page = 1; page <= lists.later.pages; page++) {
      const next = await listCustomerRequestPages(home.customerId, { ...FIRST, later: page });
      seen.push(...next.later.items.map((r) => r.id));
    }
    expect(new Set(seen).size).toBe(8);
    expect(seen).toHaveLength(8);
  });

  it("weighs a text by its escaped bytes, as the database counts them", async () => {
    const home = await member();
    const title = `Tom's "deck" & <rail> \\ café`;
    await createServiceRequest(db(), home, { title, description: null });
    const [size] = await customerRequestSizes(home.customerId);
    // Seven characters escaped (' " " & < > \\), and "é" is two bytes in UTF-8.
    expect(size).toMatchObject({
      titleBytes: Buffer.byteLength(title) + 5 * 7,
      descriptionBytes: 0,
      photos: 0,
    });
    const lists = await listCustomerRequestPages(home.customerId, FIRST);
    expect(lists.later.items[0]).toMatchObject({ title, description: null, photos: [] });
  });

  it("never shows another customer's requests", async () => {
    const mine = await member();
    const theirs = await member();
    await createServiceRequest(db(), mine, { title: "Mine" });
    const other = await createServiceRequest(db(), theirs, { title: "Theirs" });
    const lists = await listCustomerRequestPages(mine.customerId, FIRST);
    expect(lists.later.items.map((r) => r.title)).toEqual(["Mine"]);
    expect((await customerRequestsById(mine.customerId, [other.id])).size).toBe(0);
    expect((await customerRequestsById(theirs.customerId, [other.id])).get(other.id)?.title).toBe(
      "Theirs",
    );
  });
});

describe("paginate", () => {
  it("starts a new page at PAGE_CARDS cards or before the weight would pass PAGE_WEIGHT", () => {
    const light = Array.from({ length: 25 }, () => 100);
    expect(paginate(light, (w) => w).map((page) => page.length)).toEqual([10, 10, 5]);
    const heavy = [PAGE_WEIGHT / 2, PAGE_WEIGHT / 2, 1, PAGE_WEIGHT * 2, 1];
    expect(paginate(heavy, (w) => w)).toEqual([
      [PAGE_WEIGHT / 2, PAGE_WEIGHT / 2],
      [1],
      // A card heavier than a page still gets a page of its own.
      [PAGE_WEIGHT * 2],
      [1],
    ]);
    expect(paginate([], (w: number) => w)).toEqual([]);
  });

  it("weighs the heaviest card the forms allow at under a page", () => {
    const heaviest = cardWeight({ titleBytes: 200 * 6, descriptionBytes: 5_000 * 6, photos: 20 });
    expect(heaviest).toBeLessThanOrEqual(PAGE_WEIGHT * 3);
  });
});
