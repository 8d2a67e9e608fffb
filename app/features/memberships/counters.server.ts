import { and, eq, inArray, sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { membershipParts, memberships } from "~/db/schema";

export type MembershipCounters = { activeMembers: number; partsAwaitingApproval: number };

/** The employee dashboard's counters: 'Active Members' and 'Parts awaiting approval'. */
export async function membershipCounters(database: DbOrTx = db()): Promise<MembershipCounters> {
  const [row] = await database
    .select({
      activeMembers:
        sql<number>`(select count(*) from ${memberships} where ${memberships.status} = 'active')`.mapWith(
          Number,
        ),
      partsAwaitingApproval:
        sql<number>`(select count(*) from ${membershipParts} where ${membershipParts.status} = 'pending_approval')`.mapWith(
          Number,
        ),
    })
    .from(sql`(select 1) as one`);
  return row;
}

/** A customer's active membership as staff's customer views show it (ADR 014). */
export type ActiveMembership = { planName: string; minutesLeft: number };

/** Active memberships of these customers (the employee Customers tab), keyed by customer. */
export async function activeMembershipsOf(
  customerIds: string[],
): Promise<Map<string, ActiveMembership>> {
  if (!customerIds.length) return new Map();
  const rows = await db()
    .select({
      customerId: memberships.customerId,
      planName: memberships.planName,
      minutesLeft: memberships.minutesAvailable,
    })
    .from(memberships)
    .where(and(inArray(memberships.customerId, customerIds), eq(memberships.status, "active")));
  return new Map(rows.map((r) => [r.customerId, r]));
}
