import type { Tx } from "~/db/client.server";
import { businessToday, type IsoDate } from "~/lib/business-calendar";
import {
  moveVisitMinutes,
  releaseVisitMinutes,
  visitSpend,
  VisitSpendRefusedError,
} from "~/features/memberships/index.server";
import type { Closure } from "~/features/availability/index.server";
import { cancelVisit, moveVisit, staffMoveVisit } from "./change-visit.server";
import { bookVisit, type BookVisitInput } from "./create-visit.server";
import type { Override } from "./overrides.server";
import { reverseTwoHandymen } from "./second-handyman.server";
import { VisitRejectedError, type Actor } from "./visit-errors";

/**
 * Member self-booking spends the hours bank: booking reserves the block (or charges the extra
 * visit), moving decides again for the new date, canceling returns the minutes, each inside the
 * visit's own transaction. A refusal from the bank undoes the whole change.
 */

export { MEMBERS_ONLY_MESSAGE } from "./visit-errors";

function asVisitRefusal(error: unknown): never {
  if (error instanceof VisitSpendRefusedError) throw new VisitRejectedError(error.message);
  throw error;
}

/** What the visit will spend, shown before 'Confirm Visit' (null: not a member). */
export async function visitSpendSummary(
  customerId: string,
  input: { date: IsoDate; block: number; excludeAppointmentId?: string; asExtra?: boolean },
  options: { now?: Date } = {},
) {
  const spend = await visitSpend(
    customerId,
    { ...input, byMember: true },
    businessToday(options.now),
  );
  if (!spend) return null;
  return {
    label: spend.reason ? `${spend.label} (${spend.reason})` : spend.label,
    refused: spend.decision.kind === "refused",
  };
}

/**
 * When the bank cannot take the visit, what the member can do instead (issue 26, item 7): the
 * shorter block at the same start, or the visit as an extra visit at its price; and always the
 * phone (shown by the page).
 */
export async function bookingNextSteps(
  customerId: string,
  input: { date: IsoDate; block: number },
  options: { now?: Date } = {},
) {
  const steps: { kind: "shorter" | "extra"; block: 105; label: string }[] = [];
  if (input.block === 210) {
    const shorter = await visitSpendSummary(customerId, { ...input, block: 105 }, options);
    if (shorter && !shorter.refused)
      steps.push({ kind: "shorter", block: 105, label: shorter.label });
  }
  if (!steps.length) {
    const extra = await visitSpendSummary(
      customerId,
      { ...input, block: 105, asExtra: true },
      options,
    );
    if (extra && !extra.refused) steps.push({ kind: "extra", block: 105, label: extra.label });
  }
  return steps;
}

/** The member books from the Schedule tab: the hours bank takes the block (members only). */
export async function bookMemberVisit(
  customerId: string,
  input: BookVisitInput & { asExtra?: boolean },
  options: { now?: Date } = {},
) {
  return bookVisit(customerId, input, { ...options, bank: { asExtra: input.asExtra } });
}

export async function moveMemberVisit(
  actor: Actor,
  appointmentId: string,
  input: { date: IsoDate; startMinute: number; employeeId?: string },
  options: { now?: Date } = {},
) {
  return moveVisit(actor, appointmentId, input, {
    ...options,
    respend: async (tx: Tx, id: string) => {
      await moveVisitMinutes(tx, id, {
        actorId: actor.id,
        today: businessToday(options.now),
      }).catch(asVisitRefusal);
    },
  });
}

/** Staff move a visit to a time they choose; a member's bank decides again for the new date. */
export async function staffMoveMemberVisit(
  actor: Actor,
  appointmentId: string,
  input: {
    date: IsoDate;
    startMinute: number;
    employeeId: string | null;
    secondHandymanId?: string | null;
  },
  options: { now?: Date; override?: Override; closure?: Closure } = {},
) {
  return staffMoveVisit(actor, appointmentId, input, {
    ...options,
    respend: async (tx: Tx, id: string) => {
      await moveVisitMinutes(tx, id, {
        actorId: actor.id,
        today: businessToday(options.now),
      }).catch(asVisitRefusal);
    },
  });
}

export async function cancelMemberVisit(
  actor: Actor,
  appointmentId: string,
  options: { now?: Date; why?: string } = {},
) {
  return cancelVisit(actor, appointmentId, {
    ...options,
    release: async (tx: Tx, id: string) => {
      await releaseVisitMinutes(tx, id, { actorId: actor.id });
      await reverseTwoHandymen(tx, id, actor.id);
    },
  });
}
