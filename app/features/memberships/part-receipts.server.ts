import { and, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { appointments, membershipParts, memberships } from "~/db/schema";

/**
 * A part's receipt photo if `viewer` may see it: office staff, the handyman of the part's visit,
 * or the member whose membership it is. Who may see it is part of the query, so anyone else's
 * answer is the same as for a part without a receipt: none.
 */
export async function findViewableReceipt(
  viewer: { id: string; isEmployee: boolean; isHandyman?: boolean },
  partId: string,
) {
  const allowed = viewer.isHandyman
    ? eq(appointments.assignedEmployeeId, viewer.id)
    : viewer.isEmployee
      ? undefined
      : eq(memberships.customerId, viewer.id);
  const [row] = await db()
    .select({
      id: membershipParts.id,
      filePath: membershipParts.receiptPath,
      thumbnailPath: membershipParts.receiptThumbnailPath,
    })
    .from(membershipParts)
    .innerJoin(memberships, eq(memberships.id, membershipParts.membershipId))
    .innerJoin(appointments, eq(appointments.id, membershipParts.appointmentId))
    .where(and(eq(membershipParts.id, partId), allowed));
  return row?.filePath ? row : null;
}
