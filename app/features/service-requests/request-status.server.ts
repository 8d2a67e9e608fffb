import { and, eq, inArray, ne, type SQL } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import type { RequestStatus } from "~/db/request-status";
import { serviceRequests } from "~/db/schema";

/*
 * Every change of a request's status goes through setRequestStatus (issue 41): staff's Status
 * select, a visit booked (Scheduled), canceled or missed (back to Reviewed), finished (Complete
 * or back to Reviewed), and a plan task done by hand (Complete). The schema stamps updatedAt.
 */

/** Which requests: by id (one or many), or those a maintenance plan task opened (ADR 087). */
export type RequestsToSet = string | readonly string[] | { planTaskId: string };

/**
 * Sets the status of the requests chosen, in the caller's transaction. `customerId` keeps the
 * change to one member's requests; `from` to requests in one of those statuses; `notFrom` away
 * from one. Returns the ids changed (none: nothing matched).
 */
export async function setRequestStatus(
  tx: DbOrTx,
  requests: RequestsToSet,
  status: RequestStatus,
  options: {
    customerId?: string;
    from?: readonly RequestStatus[];
    notFrom?: RequestStatus;
  } = {},
): Promise<string[]> {
  const which =
    typeof requests === "string"
      ? eq(serviceRequests.id, requests)
      : "planTaskId" in requests
        ? eq(serviceRequests.planTaskId, requests.planTaskId)
        : requests.length
          ? inArray(serviceRequests.id, [...requests])
          : null;
  if (!which) return [];
  const conditions: SQL[] = [which];
  if (options.customerId) conditions.push(eq(serviceRequests.customerId, options.customerId));
  if (options.from) conditions.push(inArray(serviceRequests.status, [...options.from]));
  if (options.notFrom) conditions.push(ne(serviceRequests.status, options.notFrom));
  const changed = await tx
    .update(serviceRequests)
    .set({ status })
    .where(and(...conditions))
    .returning({ id: serviceRequests.id });
  return changed.map((row) => row.id);
}
