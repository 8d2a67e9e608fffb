import { rowsOf } from "~/db/rows";
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import {
  homes,
  profiles,
  requestPhotos,
  serviceRequestStatusCounts,
  serviceRequests,
} from "~/db/schema";
import type { RequestStatus } from "~/db/request-status";
import { foldedMatch, fullNameMatches } from "~/db/search";
import { isUuid } from "~/lib/uuid";
import { setRequestStatus as changeRequestStatus } from "./request-status.server";
import {
  DESCRIPTION_PREVIEW_LENGTH,
  MATCH_COUNT_CAP,
  NOTES_PREVIEW_LENGTH,
  REQUESTS_PAGE_SIZE,
} from "./staff-list";

/*
 * Staff's view of every customer's service requests (the employee dashboard). Built for a real business's
 * volume (hundreds of thousands of requests): pages are keyset-paginated on
 * (created_at, id) so every page is an index range scan, and the counters read a table of
 * per-status counts kept exact by triggers (migration 0001) instead of counting rows.
 */

/** Where a page starts: the created_at (full microsecond precision, as text) and id of a row. */
export type RequestCursor = { createdAt: string; id: string };

export type RequestListQuery = {
  status?: RequestStatus;
  /** Matches the title or the customer's name, anywhere, case-insensitively. */
  search?: string;
  /** Older rows than this one (the "next" page). */
  after?: RequestCursor;
  /** Newer rows than this one (the "previous" page). */
  before?: RequestCursor;
};

export type RequestListRow = {
  id: string;
  title: string;
  status: RequestStatus;
  priority: string;
  descriptionPreview: string | null;
  descriptionTruncated: boolean;
  notesPreview: string | null;
  notesTruncated: boolean;
  createdAt: string;
  customerFirstName: string | null;
  customerLastName: string | null;
  address: string;
  city: string;
  cursor: RequestCursor;
};

/** A row as the page shows it: the cursor travels only as the page's `older`/`newer` links. */
export type RequestListItem = Omit<RequestListRow, "cursor">;

export type RequestListPage = {
  rows: RequestListRow[];
  /** Cursor for older rows, when there are any. */
  older: RequestCursor | null;
  /** Cursor for newer rows, when there are any. */
  newer: RequestCursor | null;
};

/** When more customers than this match a search, their requests are found by walking the
 * newest-first index instead (common names: matches come quickly). */
const CUSTOMER_MATCH_LIMIT = 200;

// The index sorts DESC NULLS LAST; the ORDER BY must say the same for PostgreSQL to use it.
const NEWEST_FIRST = sql`${serviceRequests.createdAt} desc nulls last, ${serviceRequests.id} desc nulls last`;
const OLDEST_FIRST = sql`${serviceRequests.createdAt} asc nulls first, ${serviceRequests.id} asc nulls first`;

function keysetCondition(query: RequestListQuery): SQL | undefined {
  if (query.after) {
    return sql`(${serviceRequests.createdAt}, ${serviceRequests.id}) < (${query.after.createdAt}::timestamptz, ${query.after.id}::uuid)`;
  }
  if (query.before) {
    return sql`(${serviceRequests.createdAt}, ${serviceRequests.id}) > (${query.before.createdAt}::timestamptz, ${query.before.id}::uuid)`;
  }
  return undefined;
}

/** The statement choosing the ids (and sort keys) of one page of matching requests. */
async function pageIdsStatement(database: DbOrTx, query: RequestListQuery): Promise<SQL> {
  const backwards = Boolean(query.before);
  const order = backwards ? OLDEST_FIRST : NEWEST_FIRST;
  const limit = REQUESTS_PAGE_SIZE + 1;
  const filters: SQL[] = [];
  if (query.status) filters.push(sql`${serviceRequests.status} = ${query.status}`);
  const keyset = keysetCondition(query);
  if (keyset) filters.push(keyset);
  const where = (extra?: SQL) => {
    const all = extra ? [...filters, extra] : filters;
    return all.length ? sql`where ${sql.join(all, sql` and `)}` : sql``;
  };
  const select = sql`select ${serviceRequests.id} as id, ${serviceRequests.createdAt} as created_at from ${serviceRequests}`;

  if (!query.search) return sql`${select} ${where()} order by ${order} limit ${limit}`;

  const search = query.search;
  const customers = await database
    .select({ id: profiles.userId })
    .from(profiles)
    .where(and(eq(profiles.isEmployee, false), fullNameMatches(search)))
    .limit(CUSTOMER_MATCH_LIMIT + 1);
  let byCustomer: SQL;
  if (customers.length === 0) {
    byCustomer = sql`false`;
  } else if (customers.length <= CUSTOMER_MATCH_LIMIT) {
    // A short, known list: PostgreSQL can estimate it and pick the cheaper plan.
    const ids = `{${customers.map((c) => `"${c.id.replace(/["\\]/g, "\\$&")}"`).join(",")}}`;
    byCustomer = sql`${serviceRequests.customerId} = any(${ids}::text[])`;
  } else {
    byCustomer = sql`${serviceRequests.customerId} in (select ${profiles.userId} from ${profiles} where ${profiles.isEmployee} = false and ${fullNameMatches(search)})`;
  }
  // Two branches, each able to use its own index, merged and cut to one page.
  const direction = backwards ? sql`asc` : sql`desc`;
  return sql`select id, created_at from (
      (${select} ${where(foldedMatch(serviceRequests.title, search))} order by ${order} limit ${limit})
      union
      (${select} ${where(byCustomer)} order by ${order} limit ${limit})
    ) matches order by created_at ${direction}, id ${direction} limit ${limit}`;
}

type PageRow = {
  id: string;
  cursor_created_at: string;
  title: string;
  status: RequestStatus;
  priority: string;
  description_preview: string | null;
  notes_preview: string | null;
  created_at: string | Date;
  first_name: string | null;
  last_name: string | null;
  address: string;
  city: string;
};

/** One page of the All Requests table, newest first, in one round trip (two when searching). */
export async function listRequests(
  query: RequestListQuery,
  database: DbOrTx = db(),
): Promise<RequestListPage> {
  const backwards = Boolean(query.before);
  const direction = backwards ? sql`asc` : sql`desc`;
  const ids = await pageIdsStatement(database, query);
  const result = await database.execute(sql`
    with page as (${ids})
    select sr.id, page.created_at::text as cursor_created_at, sr.title, sr.status, sr.priority,
      left(sr.description, ${DESCRIPTION_PREVIEW_LENGTH + 1}) as description_preview,
      left(sr.employee_notes, ${NOTES_PREVIEW_LENGTH + 1}) as notes_preview,
      sr.created_at, p.first_name, p.last_name, h.address, h.city
    from page
    join ${serviceRequests} sr on sr.id = page.id
    join ${homes} h on h.id = sr.home_id
    left join ${profiles} p on p.user_id = sr.customer_id
    order by page.created_at ${direction}, page.id ${direction}`);
  const found = rowsOf<PageRow>(result);
  const hasMore = found.length > REQUESTS_PAGE_SIZE;
  const pageRows = found.slice(0, REQUESTS_PAGE_SIZE);
  if (backwards) pageRows.reverse();
  if (pageRows.length === 0) return { rows: [], older: null, newer: null };

  const rows: RequestListRow[] = pageRows.map((d) => ({
    id: d.id,
    title: d.title,
    status: d.status,
    priority: d.priority,
    descriptionPreview: d.description_preview?.slice(0, DESCRIPTION_PREVIEW_LENGTH) ?? null,
    descriptionTruncated: (d.description_preview?.length ?? 0) > DESCRIPTION_PREVIEW_LENGTH,
    notesPreview: d.notes_preview?.slice(0, NOTES_PREVIEW_LENGTH) ?? null,
    notesTruncated: (d.notes_preview?.length ?? 0) > NOTES_PREVIEW_LENGTH,
    createdAt: new Date(d.created_at).toISOString(),
    customerFirstName: d.first_name,
    customerLastName: d.last_name,
    address: d.address,
    city: d.city,
    cursor: { createdAt: d.cursor_created_at, id: d.id },
  }));
  const first = rows[0].cursor;
  const last = rows[rows.length - 1].cursor;
  const paging = Boolean(query.after || query.before);
  return {
    rows,
    // Going forwards, "more" means older rows exist; going backwards, newer ones do.
    older: backwards ? last : hasMore ? last : null,
    newer: backwards ? (hasMore ? first : null) : paging ? first : null,
  };
}

/**
 * How many requests match a search (and status), for the heading ('2 of 9 requests'). Counted
 * only up to `cap`: a full count would grow with the table (ADR 007), so past it the heading
 * says "more than". A status alone is counted by the counters, not here.
 */
export async function countMatchingRequests(
  query: { status?: RequestStatus; search: string },
  cap = MATCH_COUNT_CAP,
  database: DbOrTx = db(),
): Promise<number> {
  const filters = [
    sql`(${foldedMatch(serviceRequests.title, query.search)} or ${serviceRequests.customerId} in (select ${profiles.userId} from ${profiles} where ${profiles.isEmployee} = false and ${fullNameMatches(query.search)}))`,
  ];
  if (query.status) filters.push(sql`${serviceRequests.status} = ${query.status}`);
  const result = await database.execute(sql`
    select count(*)::int as n from (
      select 1 from ${serviceRequests} where ${sql.join(filters, sql` and `)} limit ${cap + 1}
    ) matches`);
  return Number(rowsOf<{ n: number }>(result)[0].n);
}

export type RequestCounters = {
  new: number;
  reviewed: number;
  scheduled: number;
  complete: number;
  /** Open visits (booked, on the way, in progress) from today on: the 'Scheduled' counter. */
  scheduledAppointments: number;
  total: number;
};

/** The dashboard counters: one round trip reading two small, indexed sources. */
export async function requestCounters(
  today: string,
  database: DbOrTx = db(),
): Promise<RequestCounters> {
  const result = await database.execute(sql`
    select
      (select coalesce(json_object_agg(${serviceRequestStatusCounts.status}, ${serviceRequestStatusCounts.count}), '{}'::json)
         from ${serviceRequestStatusCounts}) as requests,
      (select count(*)::int from appointments
         where status in ('booked', 'on_the_way', 'in_progress') and scheduled_date >= ${today}::date) as appointments`);
  const [row] = rowsOf<{ requests: Record<string, number | string>; appointments: number }>(result);
  const count = (status: RequestStatus) => Number(row.requests[status] ?? 0);
  return {
    new: count("new"),
    reviewed: count("reviewed"),
    scheduled: count("scheduled"),
    complete: count("complete"),
    scheduledAppointments: Number(row.appointments),
    total: count("new") + count("reviewed") + count("scheduled") + count("complete"),
  };
}

export type RequestDetail = NonNullable<Awaited<ReturnType<typeof getRequestDetail>>>;

/** Everything the request detail dialog shows, or null when there is no such request. */
export async function getRequestDetail(id: string, database: DbOrTx = db()) {
  const [request] = await database
    .select({
      id: serviceRequests.id,
      title: serviceRequests.title,
      description: serviceRequests.description,
      status: serviceRequests.status,
      priority: serviceRequests.priority,
      employeeNotes: serviceRequests.employeeNotes,
      createdAt: serviceRequests.createdAt,
      customerId: serviceRequests.customerId,
      customerFirstName: profiles.firstName,
      customerLastName: profiles.lastName,
      customerPhone: profiles.mobilePhone,
      address: homes.address,
      city: homes.city,
      state: homes.state,
      zipCode: homes.zipCode,
      propertyNotes: homes.propertyNotes,
    })
    .from(serviceRequests)
    .innerJoin(homes, eq(homes.id, serviceRequests.homeId))
    .leftJoin(profiles, eq(profiles.userId, serviceRequests.customerId))
    .where(eq(serviceRequests.id, id))
    .limit(1);
  if (!request) return null;
  const photos = await database
    .select({
      id: requestPhotos.id,
      fileName: requestPhotos.fileName,
      filePath: requestPhotos.filePath,
      thumbnailPath: requestPhotos.thumbnailPath,
    })
    .from(requestPhotos)
    .where(eq(requestPhotos.requestId, id))
    .orderBy(desc(requestPhotos.uploadedAt));
  return { ...request, createdAt: request.createdAt.toISOString(), photos };
}

/** Sets a request's status; false when the request does not exist. */
export async function setRequestStatus(
  id: string,
  status: RequestStatus,
  database: DbOrTx = db(),
): Promise<boolean> {
  return (await changeRequestStatus(database, id, status)).length > 0;
}

/** Replaces a request's internal notes (blank clears them); false when it does not exist. */
export async function setRequestNotes(
  id: string,
  notes: string,
  database: DbOrTx = db(),
): Promise<boolean> {
  const updated = await database
    .update(serviceRequests)
    .set({ employeeNotes: notes.trim() === "" ? null : notes })
    .where(eq(serviceRequests.id, id))
    .returning({ id: serviceRequests.id });
  return updated.length > 0;
}

const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

/** A cursor as an opaque URL parameter. */
export function encodeCursor(cursor: RequestCursor) {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, "utf8").toString("base64url");
}

/** The cursor of a URL parameter; undefined when it is missing or was tampered with. */
export function decodeCursor(value: string | null | undefined): RequestCursor | undefined {
  if (!value || value.length > 200) return undefined;
  const [createdAt, id] = Buffer.from(value, "base64url").toString("utf8").split("|");
  if (!createdAt || !id || !TIMESTAMP_TEXT.test(createdAt) || !isUuid(id)) return undefined;
  return { createdAt, id };
}
