import { and, asc, eq, max, ne, sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { homes, requestPhotos, serviceRequests } from "~/db/schema";
import type { Priority, ServiceRequestInput } from "./schema";
import type { CustomerRequest, CustomerRequestPhoto } from "./types";

/*
 * A customer's own service requests. Every query is scoped by the acting customer's id in its
 * `where` clause (DESIGN.md decision 3): another customer's request is never found, so it can
 * be neither read nor changed.
 */

export class NoHomeError extends Error {
  constructor() {
    super("No property found. Please contact support.");
    this.name = "NoHomeError";
  }
}

/** Display order (DESIGN.md decision 2): next, then later, then position, then created. */
const displayOrder = [
  sql`case ${serviceRequests.priority} when 'next' then 0 when 'later' then 1 else 2 end`,
  asc(serviceRequests.position),
  asc(serviceRequests.createdAt),
  asc(serviceRequests.id),
];

export async function listCustomerRequests(customerId: string): Promise<CustomerRequest[]> {
  const rows = await db()
    .select({
      id: serviceRequests.id,
      title: serviceRequests.title,
      description: serviceRequests.description,
      priority: serviceRequests.priority,
      status: serviceRequests.status,
      position: serviceRequests.position,
      createdAt: serviceRequests.createdAt,
      updatedAt: serviceRequests.updatedAt,
    })
    .from(serviceRequests)
    .where(eq(serviceRequests.customerId, customerId))
    .orderBy(...displayOrder);
  if (rows.length === 0) return [];

  const photos = await db()
    .select({
      id: requestPhotos.id,
      requestId: requestPhotos.requestId,
    })
    .from(requestPhotos)
    .innerJoin(serviceRequests, eq(serviceRequests.id, requestPhotos.requestId))
    .where(eq(serviceRequests.customerId, customerId))
    .orderBy(asc(requestPhotos.uploadedAt), asc(requestPhotos.id));
  const byRequest = new Map<string, CustomerRequestPhoto[]>();
  for (const { requestId, ...photo } of photos) {
    const list = byRequest.get(requestId) ?? [];
    list.push(photo);
    byRequest.set(requestId, list);
  }

  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    photos: byRequest.get(row.id) ?? [],
  }));
}

/** The position after the last request of the customer's priority group. */
async function nextPosition(tx: DbOrTx, customerId: string, priority: Priority) {
  const [row] = await tx
    .select({ last: max(serviceRequests.position) })
    .from(serviceRequests)
    .where(and(eq(serviceRequests.customerId, customerId), eq(serviceRequests.priority, priority)));
  return row?.last === null || row?.last === undefined ? 0 : row.last + 1;
}

/** A new request starts as `new`, at the end of its priority group, at the customer's home. */
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
 * moving at once still end with one consistent order (DESIGN.md decision 2). Completed work
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
