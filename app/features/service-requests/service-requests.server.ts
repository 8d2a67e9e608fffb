import { and, asc, count, eq, max, ne, sql } from "drizzle-orm";
import { db, type Database, type DbOrTx } from "~/db/client.server";
import { prepared } from "~/db/prepared.server";
import { homes, requestPhotos, serviceRequests } from "~/db/schema";
import { TITLE_MAX, type Priority, type ServiceRequestInput } from "./schema";
import type {
  CustomerRequest,
  CustomerRequestLists,
  CustomerRequestPhoto,
  RequestListName,
  RequestListPage,
} from "./types";

/*
 * A customer's own service requests. Every query is scoped by the acting customer's id in its
 * `where` clause (docs/design.md decision 3): another customer's request is never found, so it can
 * be neither read nor changed.
 */

export class NoHomeError extends Error {
  constructor() {
    super("No property found. Please contact support.");
    this.name = "NoHomeError";
  }
}

/** Display order (docs/design.md decision 2): next, then later, then position, then created. */
const displayOrder = [
  sql`case ${serviceRequests.priority} when 'next' then 0 when 'later' then 1 else 2 end`,
  asc(serviceRequests.position),
  asc(serviceRequests.createdAt),
  asc(serviceRequests.id),
];

/*
 * The dashboard's lists come a page at a time (docs/decisions/031): the Next and Later groups of
 * the to-do list and the completed work, each paged on its own. A page holds at most
 * PAGE_CARDS cards, and fewer when they are heavy (long texts, many photos): each card's weight
 * is its HTML and data estimated from its texts' lengths and photo count, and a page stops
 * before PAGE_WEIGHT. A member with 200 requests, or with ten 5,000-character descriptions of
 * 20 photos each, still gets a dashboard document of a bounded size.
 */

/** Cards on a page of one list, at most. */
export const PAGE_CARDS = 10;
/** Estimated bytes of one page of one list (its cards' HTML and their data), at most. */
export const PAGE_WEIGHT = 36_000;

/** Bytes a card takes whatever its texts: its markup, its controls and its data's field names. */
const CARD_BASE_BYTES = 1_800;
/** A thumbnail: its link, image and the photo's id in the data. */
const PHOTO_BYTES = 320;

/**
 * Text as the page writes it: its UTF-8 bytes, and five more for every character that HTML or
 * the page's data escapes (`&` becomes `&amp;`, `"` becomes `&quot;` or `\"`).
 */
function escapedBytes(column: typeof serviceRequests.title | typeof serviceRequests.description) {
  // translate() with nothing to translate to deletes those characters: & < > " ' and \
  return sql<number>`coalesce(octet_length(${column}) + 5 * (length(${column}) - length(translate(${column}, '&<>"''\\', ''))), 0)::int`;
}

export type ListRow = {
  id: string;
  priority: "next" | "later";
  status: string;
  titleBytes: number;
  descriptionBytes: number;
  photos: number;
};

/**
 * A card's estimated bytes on the page: the title is written six times (heading, the three
 * controls' names, the photos' list name, the data) and once more in every photo's alt text;
 * the description twice (text and data).
 */
export function cardWeight(row: Pick<ListRow, "titleBytes" | "descriptionBytes" | "photos">) {
  return (
    CARD_BASE_BYTES +
    row.titleBytes * (6 + row.photos) +
    row.descriptionBytes * 2 +
    row.photos * PHOTO_BYTES
  );
}

/** Splits a list into pages: a new page at PAGE_CARDS cards, or before PAGE_WEIGHT would be passed. */
export function paginate<T>(rows: T[], weight: (row: T) => number): T[][] {
  const pages: T[][] = [];
  let current: T[] = [];
  let used = 0;
  for (const row of rows) {
    const w = weight(row);
    if (current.length > 0 && (current.length >= PAGE_CARDS || used + w > PAGE_WEIGHT)) {
      pages.push(current);
      current = [];
      used = 0;
    }
    current.push(row);
    used += w;
  }
  if (current.length > 0) pages.push(current);
  return pages;
}

export type ListPageNumbers = Record<RequestListName, number>;

/** Every request of a customer, without its texts: what the pages are cut from. */
function prepareSizes(database: Database) {
  return database
    .select({
      id: serviceRequests.id,
      priority: serviceRequests.priority,
      status: serviceRequests.status,
      titleBytes: escapedBytes(serviceRequests.title),
      descriptionBytes: escapedBytes(serviceRequests.description),
      photos: count(requestPhotos.id),
    })
    .from(serviceRequests)
    .leftJoin(requestPhotos, eq(requestPhotos.requestId, serviceRequests.id))
    .where(eq(serviceRequests.customerId, sql.placeholder("customerId")))
    .groupBy(serviceRequests.id)
    .orderBy(
      // Completed work newest first; the to-do list in display order.
      sql`case when ${serviceRequests.status} = 'complete' then 1 else 0 end`,
      sql`case when ${serviceRequests.status} = 'complete' then ${serviceRequests.updatedAt} end desc`,
      ...displayOrder,
    )
    .prepare("customer_request_sizes");
}

/** Every request of the customer with its size on the page (texts' escaped bytes, photos). */
export async function customerRequestSizes(customerId: string): Promise<ListRow[]> {
  return prepared("customer_request_sizes", prepareSizes).execute({ customerId });
}

/**
 * A page of each of the customer's lists: Next and Later (open requests, in display order) and
 * Completed Work (newest first). Three queries however long the lists: every request's size
 * (no texts), then the shown requests' fields and their photos.
 */
export async function listCustomerRequestPages(
  customerId: string,
  wanted: ListPageNumbers,
): Promise<CustomerRequestLists> {
  const rows = await customerRequestSizes(customerId);

  const lists: Record<RequestListName, ListRow[]> = { next: [], later: [], completed: [] };
  for (const row of rows) {
    if (row.status === "complete") lists.completed.push(row);
    else lists[row.priority].push(row);
  }
  const chosen = {} as Record<RequestListName, { rows: ListRow[]; page: number; pages: number }>;
  for (const name of ["next", "later", "completed"] as const) {
    const pages = paginate(lists[name], cardWeight);
    const page = Math.min(Math.max(1, wanted[name]), Math.max(1, pages.length));
    chosen[name] = { rows: pages[page - 1] ?? [], page, pages: Math.max(1, pages.length) };
  }
  const ids = [...chosen.next.rows, ...chosen.later.rows, ...chosen.completed.rows].map(
    (row) => row.id,
  );
  const byId = await customerRequestsById(customerId, ids);
  const pageOf = (name: RequestListName): RequestListPage => ({
    items: chosen[name].rows.flatMap((row) => byId.get(row.id) ?? []),
    page: chosen[name].page,
    pages: chosen[name].pages,
    total: lists[name].length,
  });
  return { next: pageOf("next"), later: pageOf("later"), completed: pageOf("completed") };
}

/**
 * The shown requests with their photos' ids (oldest first) in one query: the photos are
 * aggregated per request, not joined row by row. One statement, however many ids (`any($ids)`).
 */
function prepareRequestsById(database: Database) {
  return database
    .select({
      id: serviceRequests.id,
      title: serviceRequests.title,
      description: serviceRequests.description,
      priority: serviceRequests.priority,
      status: serviceRequests.status,
      position: serviceRequests.position,
      createdAt: serviceRequests.createdAt,
      updatedAt: serviceRequests.updatedAt,
      fromPlan: sql<boolean>`${serviceRequests.planTaskId} is not null`,
      photoIds: sql<
        string[]
      >`coalesce(array_agg(${requestPhotos.id}::text order by ${requestPhotos.uploadedAt}, ${requestPhotos.id}) filter (where ${requestPhotos.id} is not null), '{}')::text[]`,
    })
    .from(serviceRequests)
    .leftJoin(requestPhotos, eq(requestPhotos.requestId, serviceRequests.id))
    .where(
      and(
        eq(serviceRequests.customerId, sql.placeholder("customerId")),
        sql`${serviceRequests.id} = any(${sql.placeholder("ids")}::uuid[])`,
      ),
    )
    .groupBy(serviceRequests.id)
    .prepare("customer_requests_by_id");
}

/** The customer's requests with these ids, with their photos (oldest first). */
export async function customerRequestsById(customerId: string, ids: string[]) {
  const byId = new Map<string, CustomerRequest>();
  if (ids.length === 0) return byId;
  const rows = await prepared("customer_requests_by_id", prepareRequestsById).execute({
    customerId,
    ids,
  });
  for (const { photoIds, ...row } of rows) {
    byId.set(row.id, {
      ...row,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      photos: photoIds.map((id): CustomerRequestPhoto => ({ id })),
    });
  }
  return byId;
}

/** The position after the last request of the customer's priority group. */
async function nextPosition(tx: DbOrTx, customerId: string, priority: Priority) {
  const [row] = await tx
    .select({ last: max(serviceRequests.position) })
    .from(serviceRequests)
    .where(and(eq(serviceRequests.customerId, customerId), eq(serviceRequests.priority, priority)));
  return row?.last === null || row?.last === undefined ? 0 : row.last + 1;
}

/**
 * A customer's requests still to do (the Next and Later lists) "by priority": next before later,
 * then the customer's own order. What a visit's tasks are chosen from: `onVisitDate` is the day
 * of the upcoming visit that already holds one (appointment_tasks.visit_open), shown to the
 * member and staff as "on your visit of December 2" and not offered again.
 */
export function openRequestsOf(customerId: string, database: DbOrTx = db()) {
  return database
    .select({
      id: serviceRequests.id,
      title: serviceRequests.title,
      status: serviceRequests.status,
      priority: serviceRequests.priority,
      fromPlan: sql<boolean>`"service_requests"."plan_task_id" is not null`,
      // Written with the tables' names: a one-table select drops them from its columns.
      onVisitDate: sql<string | null>`(select min(a.scheduled_date)::text
        from appointment_tasks t inner join appointments a on a.id = t.appointment_id
        where t.service_request_id = "service_requests"."id" and t.visit_open)`,
    })
    .from(serviceRequests)
    .where(and(eq(serviceRequests.customerId, customerId), ne(serviceRequests.status, "complete")))
    .orderBy(
      asc(serviceRequests.priority),
      asc(serviceRequests.position),
      asc(serviceRequests.createdAt),
    );
}

/**
 * The tasks staff typed into a visit become requests of the member's (issue 40 item 2), in the
 * visit's transaction: scheduled, at the end of the Next list, so that they end 'Done' (on the
 * Completed list with their photos) or back on the list, like any task the member chose.
 * Returns their ids in the order given.
 */
export async function addTaskRequests(
  tx: DbOrTx,
  input: { customerId: string; homeId: string; tasks: string[] },
) {
  const ids: string[] = [];
  let position = await nextPosition(tx, input.customerId, "next");
  for (const task of input.tasks) {
    const title = task.length > TITLE_MAX ? `${task.slice(0, TITLE_MAX - 1).trimEnd()}…` : task;
    const [row] = await tx
      .insert(serviceRequests)
      .values({
        homeId: input.homeId,
        customerId: input.customerId,
        title,
        description: title === task ? null : task,
        priority: "next",
        status: "scheduled",
        position: position++,
      })
      .returning({ id: serviceRequests.id });
    ids.push(row.id);
  }
  return ids;
}

/**
 * A task of the home's maintenance plan fallen due becomes a request of the member's (ADR 087):
 * at the end of the Next list, reviewed (the office planned it), naming its task and the month
 * it is due for. The unique index (plan task, month) holds it to one.
 */
export async function addPlanRequest(
  tx: DbOrTx,
  input: {
    customerId: string;
    homeId: string;
    title: string;
    planTaskId: string;
    planDueOn: string;
  },
) {
  await tx
    .insert(serviceRequests)
    .values({
      ...input,
      title: input.title.slice(0, TITLE_MAX),
      description: null,
      priority: "next",
      status: "reviewed",
      position: await nextPosition(tx, input.customerId, "next"),
    })
    .onConflictDoNothing();
}

export async function createServiceRequest(customerId: string, input: ServiceRequestInput) {
  return db().transaction(async (tx) => {
    const [home] = await tx
      .select({ id: homes.id })
      .from(homes)
      .where(eq(homes.customerId, customerId))
      .limit(1);
    if (!home) throw new NoHomeError();
    const [row] = await tx
      .insert(serviceRequests)
      .values({
        homeId: home.id,
        customerId,
        title: input.title,
        description: input.description,
        priority: input.priority,
        status: "new",
        position: await nextPosition(tx, customerId, input.priority),
      })
      .returning();
    return row;
  });
}

/** The customer's request, if it exists and is theirs. */
export async function findCustomerRequest(customerId: string, requestId: string) {
  const [row] = await db()
    .select()
    .from(serviceRequests)
    .where(and(eq(serviceRequests.id, requestId), eq(serviceRequests.customerId, customerId)))
    .limit(1);
  return row ?? null;
}

/**
 * Edits title, description and priority of an open request (completed work is closed to
 * edits). A request moved to the other group goes to its end. Null when nothing matched.
 */
export async function updateServiceRequest(
  customerId: string,
  requestId: string,
  input: ServiceRequestInput,
) {
  return db().transaction(async (tx) => {
    const [current] = await tx
      .select({ priority: serviceRequests.priority })
      .from(serviceRequests)
      .where(
        and(
          eq(serviceRequests.id, requestId),
          eq(serviceRequests.customerId, customerId),
          ne(serviceRequests.status, "complete"),
        ),
      )
      .for("update");
    if (!current) return null;
    const moved = current.priority !== input.priority;
    const [row] = await tx
      .update(serviceRequests)
      .set({
        title: input.title,
        description: input.description,
        priority: input.priority,
        ...(moved ? { position: await nextPosition(tx, customerId, input.priority) } : {}),
      })
      .where(and(eq(serviceRequests.id, requestId), eq(serviceRequests.customerId, customerId)))
      .returning();
    return row ?? null;
  });
}

/**
 * Deletes an open request (its photo rows go with it by cascade); the caller then removes the
 * stored files. Null when nothing matched.
 */
export async function deleteServiceRequest(customerId: string, requestId: string) {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .delete(serviceRequests)
      .where(
        and(
          eq(serviceRequests.id, requestId),
          eq(serviceRequests.customerId, customerId),
          ne(serviceRequests.status, "complete"),
        ),
      )
      .returning({ id: serviceRequests.id });
    return row ?? null;
  });
}

export type MoveResult = "moved" | "at-end" | "not-found";

/**
 * Moves a request one place up or down inside its (customer, priority) group of the to-do list
 * and renumbers the group, in one transaction with the group's rows locked, so two devices
 * moving at once still end with one consistent order (docs/design.md decision 2). Completed work
 * has left the to-do list: it neither moves nor counts as a neighbour.
 */
export async function moveServiceRequest(
  customerId: string,
  requestId: string,
  direction: "up" | "down",
): Promise<MoveResult> {
  return db().transaction(async (tx) => {
    const [target] = await tx
      .select({ priority: serviceRequests.priority })
      .from(serviceRequests)
      .where(
        and(
          eq(serviceRequests.id, requestId),
          eq(serviceRequests.customerId, customerId),
          ne(serviceRequests.status, "complete"),
        ),
      );
    if (!target) return "not-found";
    const group = await tx
      .select({ id: serviceRequests.id, position: serviceRequests.position })
      .from(serviceRequests)
      .where(
        and(
          eq(serviceRequests.customerId, customerId),
          eq(serviceRequests.priority, target.priority),
          ne(serviceRequests.status, "complete"),
        ),
      )
      .orderBy(
        asc(serviceRequests.position),
        asc(serviceRequests.createdAt),
        asc(serviceRequests.id),
      )
      .for("update");
    const index = group.findIndex((row) => row.id === requestId);
    if (index < 0) return "not-found"; // its priority changed under us
    const swapWith = direction === "up" ? index - 1 : index + 1;
    if (swapWith < 0 || swapWith >= group.length) return "at-end";
    const ids = group.map((row) => row.id);
    [ids[index], ids[swapWith]] = [ids[swapWith], ids[index]];
    const changed = ids
      .map((id, position) => ({ id, position }))
      .filter(({ id, position }) => group.find((row) => row.id === id)?.position !== position);
    for (const { id, position } of changed) {
      await tx
        .update(serviceRequests)
        .set({ position })
        .where(and(eq(serviceRequests.id, id), eq(serviceRequests.customerId, customerId)));
    }
    return "moved";
  });
}
