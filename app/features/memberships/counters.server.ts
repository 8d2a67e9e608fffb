import { and, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
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

/**
 * A customer's membership as staff's customer views show it (ADR 014): the active one with its
 * hours, or a canceled one still owing or owed money, so the office sees open balances and
 * credits (issue 27, item 14). `balanceCents` > 0: the customer owes; < 0: we owe them.
 */
export type ActiveMembership = {
  planName: string;
  minutesLeft: number;
  status: "active" | "canceled";
  balanceCents: number;
};

/**
 * The memberships staff's customer lists show (the employee Customers tab), keyed by customer:
 * each customer's active membership, or else their latest canceled one with an open balance.
 */
export async function activeMembershipsOf(
  customerIds: string[],
): Promise<Map<string, ActiveMembership>> {
  if (!customerIds.length) return new Map();
  const rows = await db()
    .selectDistinctOn([memberships.customerId], {
      customerId: memberships.customerId,
      planName: memberships.planName,
      minutesLeft: memberships.minutesAvailable,
      status: memberships.status,
      balanceCents: memberships.balanceCents,
    })
    .from(memberships)
    .where(
      and(
        inArray(memberships.customerId, customerIds),
        or(eq(memberships.status, "active"), ne(memberships.balanceCents, 0)),
      ),
    )
    .orderBy(
      memberships.customerId,
      sql`${memberships.status} = 'active' desc`,
      desc(memberships.createdAt),
    );
  return new Map(rows.map(({ customerId, ...r }) => [customerId, r]));
}
