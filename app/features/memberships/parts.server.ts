import { and, eq, inArray } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import {
  appointments,
  membershipMoneyLedger,
  membershipParts,
  memberships,
  membershipVisits,
} from "~/db/schema";
import { longDate } from "./dates";
import { mailPartDecision, mailPartsApprovalNeeded } from "./emails.server";
import { MembershipRejectedError } from "./errors.server";
import { inTransaction, lockMembership, postMoney } from "./ledger.server";

/* ---------- parts ---------- */

/**
 * Staff record a part for a member's visit. Over $100 it waits for the member's approval (an
 * e-mail and an 'Approve' / 'Decline' card); otherwise it is approved at once.
 */
export async function addPart(
  input: {
    appointmentId: string;
    description: string;
    costCents: number;
    /** The receipt's photo, already stored through the photo pipeline ('Add part' on 'Today'). */
    receipt?: { filePath: string; thumbnailPath: string } | null;
  },
  staffId: string | null,
  database: DbOrTx = db(),
  notify = true,
) {
  return inTransaction(database, async (tx) => {
    const [visit] = await tx
      .select({ membershipId: membershipVisits.membershipId, status: membershipVisits.status })
      .from(membershipVisits)
      .where(eq(membershipVisits.appointmentId, input.appointmentId));
    if (!visit || visit.status === "released") {
      throw new MembershipRejectedError("Parts are recorded for a member's visit.");
    }
    const m = await lockMembership(tx, visit.membershipId);
    if (m.status !== "active") throw new MembershipRejectedError("This membership is canceled.");
    const needsApproval = input.costCents > 10_000;
    const [part] = await tx
      .insert(membershipParts)
      .values({
        membershipId: m.id,
        appointmentId: input.appointmentId,
        description: input.description,
        costCents: input.costCents,
        needsApproval,
        status: needsApproval ? "pending_approval" : "approved",
        createdBy: staffId,
        receiptPath: input.receipt?.filePath ?? null,
        receiptThumbnailPath: input.receipt?.thumbnailPath ?? null,
      })
      .returning();
    if (needsApproval && notify) await mailPartsApprovalNeeded(tx, m, part);
    return part;
  });
}

/** The member answers a parts approval request of their own membership only. */
export async function decidePart(
  customerId: string,
  partId: string,
  decision: "approve" | "decline",
  database: DbOrTx = db(),
) {
  return inTransaction(database, async (tx) => {
    const [part] = await tx
      .update(membershipParts)
      .set({
        status: decision === "approve" ? "approved" : "declined",
        decidedAt: new Date(),
        decidedBy: customerId,
      })
      .where(
        and(
          eq(membershipParts.id, partId),
          eq(membershipParts.status, "pending_approval"),
          inArray(
            membershipParts.membershipId,
            tx
              .select({ id: memberships.id })
              .from(memberships)
              .where(and(eq(memberships.customerId, customerId), eq(memberships.status, "active"))),
          ),
        ),
      )
      .returning();
    if (!part) throw new MembershipRejectedError("This part is not waiting for your approval.");
    const [m] = await tx.select().from(memberships).where(eq(memberships.id, part.membershipId));
    await mailPartDecision(tx, m, part);
    return part;
  });
}

/**
 * Staff mark an approved part bought: the part is charged, and the visit's $10 shopping fee
 * once (never per part; a unique index holds it to one per visit).
 */
export async function markPartBought(partId: string, staffId: string, database: DbOrTx = db()) {
  return inTransaction(database, async (tx) => {
    const [found] = await tx
      .select({ membershipId: membershipParts.membershipId })
      .from(membershipParts)
      .where(eq(membershipParts.id, partId));
    if (!found) throw new MembershipRejectedError("Part not found.");
    const m = await lockMembership(tx, found.membershipId);
    const [part] = await tx
      .select()
      .from(membershipParts)
      .where(eq(membershipParts.id, partId))
      .for("update");
    if (part.status !== "approved") {
      throw new MembershipRejectedError(
        part.status === "bought"
          ? "This part is already marked bought."
          : "Only an approved part can be marked bought.",
      );
    }
    await tx
      .update(membershipParts)
      .set({ status: "bought", boughtAt: new Date(), boughtBy: staffId })
      .where(eq(membershipParts.id, partId));
    const [appointment] = await tx
      .select({ scheduledDate: appointments.scheduledDate })
      .from(appointments)
      .where(eq(appointments.id, part.appointmentId));
    const when = appointment ? ` (visit on ${longDate(appointment.scheduledDate)})` : "";
    await postMoney(tx, m, {
      kind: "part",
      amountCents: part.costCents,
      description: `Part: ${part.description}${when}`,
      partId: part.id,
      appointmentId: part.appointmentId,
      createdBy: staffId,
    });
    const [fee] = await tx
      .select({ id: membershipMoneyLedger.id })
      .from(membershipMoneyLedger)
      .where(
        and(
          eq(membershipMoneyLedger.appointmentId, part.appointmentId),
          eq(membershipMoneyLedger.kind, "shopping_fee"),
        ),
      );
    if (!fee) {
      await postMoney(tx, m, {
        kind: "shopping_fee",
        amountCents: 1_000,
        description: `Shopping fee${when}`,
        appointmentId: part.appointmentId,
        createdBy: staffId,
      });
    }
    return part;
  });
}

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
