import { and, eq, inArray, like, ne, or, sql } from "drizzle-orm";
import { db, type DbOrTx, type Tx } from "~/db/client.server";
import {
  appointments,
  membershipMoneyLedger,
  membershipParts,
  memberships,
  membershipVisits,
  type Membership,
  type MembershipPart,
} from "~/db/schema";
import { claimActionKey } from "~/lib/action-keys.server";
import { mailPartDecision, mailPartsApprovalNeeded } from "./emails.server";
import { MembershipRejectedError } from "./errors.server";
import { inTransaction, lockMembership, postMoney } from "./ledger.server";
import { formatCents } from "~/lib/money";
import { plainDate } from "~/lib/business-calendar";

/** Over this a part waits for the member's approval. */
export const PART_APPROVAL_OVER_CENTS = 10_000;
/** The visit's shopping fee, charged once per visit with a bought part. */
export const SHOPPING_FEE_CENTS = 1_000;
/** Every fee entry's description starts so (the fee's reversal and its charge again too). */
const FEE_LABEL = "Shopping fee";

/** What a form sent twice (its idempotency key already claimed, ADR 048) is answered. */
export type Once<T> = { applied: true; value: T } | { applied: false; value: null };

/* ---------- parts ---------- */

/**
 * Staff record a part for a member's visit. Over $100 it waits for the member's approval (an
 * e-mail and an 'Approve' / 'Decline' card); otherwise it is approved at once. A part recorded
 * with its receipt photo was bought already: it is charged now (with the visit's one shopping
 * fee), or, over $100, as soon as the member approves it.
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
    if (m.status !== "active") throw new MembershipRejectedError(CANCELED);
    const needsApproval = input.costCents > PART_APPROVAL_OVER_CENTS;
    const boughtNow = !needsApproval && Boolean(input.receipt);
    const [part] = await tx
      .insert(membershipParts)
      .values({
        membershipId: m.id,
        appointmentId: input.appointmentId,
        description: input.description,
        costCents: input.costCents,
        needsApproval,
        status: needsApproval ? "pending_approval" : boughtNow ? "bought" : "approved",
        createdBy: staffId,
        receiptPath: input.receipt?.filePath ?? null,
        receiptThumbnailPath: input.receipt?.thumbnailPath ?? null,
        ...(boughtNow ? { boughtAt: new Date(), boughtBy: staffId } : {}),
      })
      .returning();
    if (boughtNow) await chargePart(tx, m, part, staffId);
    if (needsApproval && notify) await mailPartsApprovalNeeded(tx, m, part);
    return part;
  });
}

const CANCELED = "This membership is canceled.";

/**
 * Runs `fn` once per idempotency key (ADR 048): the key is claimed in the same transaction as
 * the change, so ten posts of one form at once make one change; a refused change rolls its key
 * back, so the corrected form still applies.
 */
async function once<T>(
  database: DbOrTx,
  key: { key: string; actorId: string; action: string },
  fn: (tx: Tx) => Promise<T>,
): Promise<Once<T>> {
  return inTransaction(database, async (tx) => {
    if (!(await claimActionKey(tx, key))) return { applied: false as const, value: null };
    return { applied: true as const, value: await fn(tx) };
  });
}

/** 'Add part' with its form's idempotency key: one part however many times it is sent. */
export function addPartOnce(
  input: Parameters<typeof addPart>[0],
  staffId: string,
  key: string,
  database: DbOrTx = db(),
) {
  return once(database, { key, actorId: staffId, action: `part:${input.appointmentId}` }, (tx) =>
    addPart(input, staffId, tx),
  );
}

/** ' (visit on November 30, 2026)': the day a part's ledger lines name. */
async function visitWhen(tx: Tx, appointmentId: string) {
  const [appointment] = await tx
    .select({ scheduledDate: appointments.scheduledDate })
    .from(appointments)
    .where(eq(appointments.id, appointmentId));
  return appointment ? ` (visit on ${plainDate(appointment.scheduledDate)})` : "";
}

/** The visit's shopping fee as it stands: its charge, less a reversal, plus a charge again. */
async function shoppingFeeNet(tx: Tx, appointmentId: string) {
  const [row] = await tx
    .select({
      entries: sql<number>`count(*)`.mapWith(Number),
      net: sql<number>`coalesce(sum(${membershipMoneyLedger.amountCents}), 0)`.mapWith(Number),
    })
    .from(membershipMoneyLedger)
    .where(
      and(
        eq(membershipMoneyLedger.appointmentId, appointmentId),
        or(
          eq(membershipMoneyLedger.kind, "shopping_fee"),
          and(
            eq(membershipMoneyLedger.kind, "correction"),
            sql`${membershipMoneyLedger.partId} is null`,
            like(membershipMoneyLedger.description, `${FEE_LABEL}%`),
          ),
        ),
      ),
    );
  return { charged: row.entries > 0, net: row.net };
}

/**
 * Charges a part now bought (its row already says so): the part, and the visit's one shopping
 * fee (never per part: a unique index holds its charge to one per visit; a fee reversed when the
 * visit's last part was removed is charged again by a correction).
 */
async function chargePart(tx: Tx, m: Membership, part: MembershipPart, staffId: string | null) {
  const when = await visitWhen(tx, part.appointmentId);
  await postMoney(tx, m, {
    kind: "part",
    amountCents: part.costCents,
    description: `Part: ${part.description}${when}`,
    partId: part.id,
    appointmentId: part.appointmentId,
    createdBy: staffId,
  });
  const fee = await shoppingFeeNet(tx, part.appointmentId);
  if (!fee.charged) {
    await postMoney(tx, m, {
      kind: "shopping_fee",
      amountCents: SHOPPING_FEE_CENTS,
      description: `${FEE_LABEL}${when}`,
      appointmentId: part.appointmentId,
      createdBy: staffId,
    });
  } else if (fee.net <= 0) {
    await postMoney(tx, m, {
      kind: "correction",
      amountCents: SHOPPING_FEE_CENTS,
      description: `${FEE_LABEL} charged again: a part bought${when}`,
      appointmentId: part.appointmentId,
      createdBy: staffId,
    });
  }
}

/** The member answers a parts approval request of their own membership only. */
export async function decidePart(
  customerId: string,
  partId: string,
  decision: "approve" | "decline",
  database: DbOrTx = db(),
) {
  return inTransaction(database, async (tx) => {
    const notWaiting = new MembershipRejectedError("This part is not waiting for your approval.");
    // The membership first, as every ledger change locks it, then the part.
    const [found] = await tx
      .select({ membershipId: membershipParts.membershipId })
      .from(membershipParts)
      .innerJoin(memberships, eq(memberships.id, membershipParts.membershipId))
      .where(and(eq(membershipParts.id, partId), eq(memberships.customerId, customerId)));
    if (!found) throw notWaiting;
    const m = await lockMembership(tx, found.membershipId);
    if (m.status !== "active") throw notWaiting;
    const [part] = await tx
      .update(membershipParts)
      .set({
        status: decision === "approve" ? "approved" : "declined",
        decidedAt: new Date(),
        decidedBy: customerId,
      })
      .where(and(eq(membershipParts.id, partId), eq(membershipParts.status, "pending_approval")))
      .returning();
    if (!part) throw notWaiting;
    // Recorded with its receipt photo: the handyman bought it, so approving it charges it.
    if (part.status === "approved" && part.receiptPath) {
      const [bought] = await tx
        .update(membershipParts)
        .set({ status: "bought", boughtAt: new Date(), boughtBy: part.createdBy })
        .where(eq(membershipParts.id, part.id))
        .returning();
      await chargePart(tx, m, bought, part.createdBy);
      await mailPartDecision(tx, m, bought);
      return bought;
    }
    await mailPartDecision(tx, m, part);
    return part;
  });
}

/** The part and its membership, both locked, the membership active (staff's part actions). */
async function lockPart(tx: Tx, partId: string) {
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
  // The settlement of a canceled membership is final: its parts change no more.
  if (m.status !== "active") throw new MembershipRejectedError(CANCELED);
  return { m, part };
}

/**
 * Staff mark an approved part bought: the part is charged, and the visit's $10 shopping fee
 * once (never per part; a unique index holds it to one per visit).
 */
export async function markPartBought(partId: string, staffId: string, database: DbOrTx = db()) {
  return inTransaction(database, async (tx) => {
    const { m, part } = await lockPart(tx, partId);
    if (part.status !== "approved") {
      throw new MembershipRejectedError(
        part.status === "bought"
          ? "This part is already marked bought."
          : "Only an approved part can be marked bought.",
      );
    }
    const [bought] = await tx
      .update(membershipParts)
      .set({ status: "bought", boughtAt: new Date(), boughtBy: staffId })
      .where(eq(membershipParts.id, partId))
      .returning();
    await chargePart(tx, m, bought, staffId);
    return bought;
  });
}

/** 'Mark Bought' with its form's idempotency key: charged once however many times it is sent. */
export function markPartBoughtOnce(
  partId: string,
  staffId: string,
  key: string,
  database: DbOrTx = db(),
) {
  return once(database, { key, actorId: staffId, action: `part-bought:${partId}` }, (tx) =>
    markPartBought(partId, staffId, tx),
  );
}

/** A part office staff may still remove or correct: one not declined, removed or withdrawn. */
const OPEN_PART_STATUSES = new Set<MembershipPart["status"]>([
  "pending_approval",
  "approved",
  "bought",
]);

/** What the ledger holds for a part: its charge and every correction of it since. */
async function chargedFor(tx: Tx, partId: string) {
  const [row] = await tx
    .select({
      cents: sql<number>`coalesce(sum(${membershipMoneyLedger.amountCents}), 0)`.mapWith(Number),
    })
    .from(membershipMoneyLedger)
    .where(
      and(
        eq(membershipMoneyLedger.partId, partId),
        inArray(membershipMoneyLedger.kind, ["part", "correction"]),
      ),
    );
  return row.cents;
}

/**
 * 'Remove part': office staff remove a wrong part. A charged part is reversed by a correction
 * of what was charged for it, and the visit's shopping fee with it when no other bought part is
 * left on the visit; a part waiting for approval is no longer asked about.
 */
export async function removePart(partId: string, staffId: string, database: DbOrTx = db()) {
  return inTransaction(database, async (tx) => {
    const { m, part } = await lockPart(tx, partId);
    if (!OPEN_PART_STATUSES.has(part.status)) {
      throw new MembershipRejectedError(
        part.status === "removed"
          ? "This part is already removed."
          : "This part is not charged or waiting.",
      );
    }
    const [removed] = await tx
      .update(membershipParts)
      .set({ status: "removed", removedAt: new Date(), removedBy: staffId })
      .where(eq(membershipParts.id, partId))
      .returning();
    const when = await visitWhen(tx, part.appointmentId);
    const charged = await chargedFor(tx, partId);
    if (charged !== 0) {
      await postMoney(tx, m, {
        kind: "correction",
        amountCents: -charged,
        description: `Part removed: ${part.description}${when}`,
        partId,
        appointmentId: part.appointmentId,
        createdBy: staffId,
      });
    }
    const [stillBought] = await tx
      .select({ id: membershipParts.id })
      .from(membershipParts)
      .where(
        and(
          eq(membershipParts.appointmentId, part.appointmentId),
          eq(membershipParts.status, "bought"),
          ne(membershipParts.id, partId),
        ),
      )
      .limit(1);
    const fee = await shoppingFeeNet(tx, part.appointmentId);
    if (!stillBought && fee.net > 0) {
      await postMoney(tx, m, {
        kind: "correction",
        amountCents: -fee.net,
        description: `${FEE_LABEL} reversed: no part bought${when}`,
        appointmentId: part.appointmentId,
        createdBy: staffId,
      });
    }
    return removed;
  });
}

export function removePartOnce(
  partId: string,
  staffId: string,
  key: string,
  database: DbOrTx = db(),
) {
  return once(database, { key, actorId: staffId, action: `part-remove:${partId}` }, (tx) =>
    removePart(partId, staffId, tx),
  );
}

/**
 * 'Correct part': office staff correct a part's description or price. A charged part's
 * difference is a correction entry (the charge itself is never edited). A part not yet charged
 * is asked about again when the new price is over $100 and more than the member approved; under
 * it, it needs no approval (and one recorded with its receipt is then charged).
 */
export async function correctPart(
  input: { partId: string; description: string; costCents: number },
  staffId: string,
  database: DbOrTx = db(),
) {
  return inTransaction(database, async (tx) => {
    const { m, part } = await lockPart(tx, input.partId);
    if (!OPEN_PART_STATUSES.has(part.status)) {
      throw new MembershipRejectedError("Only a part charged or waiting can be corrected.");
    }
    if (input.description === part.description && input.costCents === part.costCents) {
      throw new MembershipRejectedError("Nothing to correct: the part is as it was.");
    }
    const when = await visitWhen(tx, part.appointmentId);
    if (part.status === "bought") {
      const [corrected] = await tx
        .update(membershipParts)
        .set({ description: input.description, costCents: input.costCents })
        .where(eq(membershipParts.id, part.id))
        .returning();
      const difference = input.costCents - (await chargedFor(tx, part.id));
      if (difference !== 0) {
        await postMoney(tx, m, {
          kind: "correction",
          amountCents: difference,
          description: `Part corrected: ${part.description}, ${formatCents(part.costCents)}, is ${input.description}, ${formatCents(input.costCents)}${when}`,
          partId: part.id,
          appointmentId: part.appointmentId,
          createdBy: staffId,
        });
      }
      return corrected;
    }
    const memberApproved = part.decidedAt !== null && input.costCents <= part.costCents;
    const overLimit = input.costCents > PART_APPROVAL_OVER_CENTS;
    const needsApproval = overLimit && !memberApproved;
    const status = needsApproval ? "pending_approval" : "approved";
    const [corrected] = await tx
      .update(membershipParts)
      .set({
        description: input.description,
        costCents: input.costCents,
        needsApproval: overLimit,
        status,
        ...(needsApproval ? { decidedAt: null, decidedBy: null } : {}),
      })
      .where(eq(membershipParts.id, part.id))
      .returning();
    if (needsApproval && part.status !== "pending_approval") {
      await mailPartsApprovalNeeded(tx, m, corrected);
    }
    if (status === "approved" && part.receiptPath) {
      const [bought] = await tx
        .update(membershipParts)
        .set({ status: "bought", boughtAt: new Date(), boughtBy: staffId })
        .where(eq(membershipParts.id, part.id))
        .returning();
      await chargePart(tx, m, bought, staffId);
      return bought;
    }
    return corrected;
  });
}

export function correctPartOnce(
  input: Parameters<typeof correctPart>[0],
  staffId: string,
  key: string,
  database: DbOrTx = db(),
) {
  return once(database, { key, actorId: staffId, action: `part-correct:${input.partId}` }, (tx) =>
    correctPart(input, staffId, tx),
  );
}

/**
 * A canceled membership's parts that were still waiting are withdrawn (in the cancel's
 * transaction, the membership locked): those waiting for the member's approval, and those
 * approved but not bought for a visit canceled with it. Nobody is asked about them again and no
 * report counts them pending.
 */
export async function withdrawWaitingParts(
  tx: Tx,
  membershipId: string,
  canceledVisitIds: string[],
) {
  return tx
    .update(membershipParts)
    .set({ status: "withdrawn", removedAt: new Date() })
    .where(
      and(
        eq(membershipParts.membershipId, membershipId),
        or(
          eq(membershipParts.status, "pending_approval"),
          canceledVisitIds.length
            ? and(
                eq(membershipParts.status, "approved"),
                inArray(membershipParts.appointmentId, canceledVisitIds),
              )
            : undefined,
        ),
      ),
    )
    .returning({ id: membershipParts.id });
}
