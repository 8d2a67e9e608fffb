import { and, eq, like, or, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "~/db/client.server";
import {
  appointments,
  membershipMoneyLedger,
  membershipVisits,
  type Membership,
} from "~/db/schema";
import { business } from "~/lib/business.server";
import { secondHandymanFeeLine } from "~/lib/two-handymen";
import { formatCents } from "~/lib/money";
import { plainDate } from "~/lib/business-calendar";
import { lockMembership, postMoney } from "./ledger.server";
import { SECOND_HANDYMAN_FEE_LABEL } from "./settlement";

/*
 * The second handyman's fee on a member's visit (ADR 091), in the membership's money ledger like
 * the extra visit's and the shopping fee: charged once when the visit is booked with two
 * handymen (a unique index holds the charge to one per visit, and the membership's lock makes
 * concurrent bookings take turns), reversed by a correction when the visit is canceled or goes
 * back to one handyman, and charged again by a correction if the second one is added back.
 * The amount is the business's setting when it is charged; a reversal takes back what was.
 */

/** The member's visit's membership, when it still holds one (not released). */
async function heldBy(tx: DbOrTx, appointmentId: string) {
  const [row] = await tx
    .select({
      membershipId: membershipVisits.membershipId,
      status: membershipVisits.status,
      scheduledDate: appointments.scheduledDate,
    })
    .from(membershipVisits)
    .innerJoin(appointments, eq(appointments.id, membershipVisits.appointmentId))
    .where(eq(membershipVisits.appointmentId, appointmentId));
  return row;
}

/** The fee as it stands on the visit: whether it was ever charged, and its net in cents. */
export async function secondHandymanFeeNet(database: DbOrTx, appointmentId: string) {
  const [row] = await database
    .select({
      entries: sql<number>`count(*)`.mapWith(Number),
      net: sql<number>`coalesce(sum(${membershipMoneyLedger.amountCents}), 0)`.mapWith(Number),
    })
    .from(membershipMoneyLedger)
    .where(
      and(
        eq(membershipMoneyLedger.appointmentId, appointmentId),
        or(
          eq(membershipMoneyLedger.kind, "second_handyman"),
          and(
            eq(membershipMoneyLedger.kind, "correction"),
            like(membershipMoneyLedger.description, `${SECOND_HANDYMAN_FEE_LABEL}%`),
          ),
        ),
      ),
    );
  return { charged: row.entries > 0, netCents: row.net };
}

/**
 * Charges the visit's second handyman to its membership, in the caller's transaction, unless
 * it is charged already: once however often it is called. Nothing for a visit no membership
 * holds (a walk-thru, a customer without a membership). Returns the cents charged now (0: none).
 */
export async function chargeSecondHandyman(tx: Tx, appointmentId: string, actorId: string | null) {
  const held = await heldBy(tx, appointmentId);
  if (!held || held.status === "released") return 0;
  const m = await lockMembership(tx, held.membershipId);
  const fee = await secondHandymanFeeNet(tx, appointmentId);
  if (fee.netCents > 0) return 0;
  const cents = business().secondHandymanFeeCents;
  const when = ` (visit on ${plainDate(held.scheduledDate)})`;
  await postMoney(tx, m, {
    kind: fee.charged ? "correction" : "second_handyman",
    amountCents: cents,
    description: fee.charged
      ? `${SECOND_HANDYMAN_FEE_LABEL} charged again: ${formatCents(cents)}${when}`
      : `${secondHandymanFeeLine(cents)}${when}`,
    appointmentId,
    createdBy: actorId,
  });
  return cents;
}

/**
 * Takes the visit's second-handyman fee back (the visit canceled, or back to one handyman), in
 * the caller's transaction: what is charged of it, once. Returns the cents reversed (0: none).
 * A caller holding the membership's lock already (the membership's cancel) passes it, so its
 * balance follows the reversal.
 */
export async function reverseSecondHandyman(
  tx: Tx,
  appointmentId: string,
  actorId: string | null,
  why: "canceled" | "one handyman",
  locked?: Membership,
) {
  const held = await heldBy(tx, appointmentId);
  if (!held) return 0;
  const m = locked?.id === held.membershipId ? locked : await lockMembership(tx, held.membershipId);
  const fee = await secondHandymanFeeNet(tx, appointmentId);
  if (fee.netCents <= 0) return 0;
  await postMoney(tx, m, {
    kind: "correction",
    amountCents: -fee.netCents,
    description: `${SECOND_HANDYMAN_FEE_LABEL} reversed: ${why === "canceled" ? "the visit was canceled" : "one handyman comes"} (visit on ${plainDate(held.scheduledDate)})`,
    appointmentId,
    createdBy: actorId,
  });
  return fee.netCents;
}
