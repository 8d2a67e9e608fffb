import { staffMoveMemberVisit } from "~/features/visits/index.server";
import { minuteOfDay, type IsoDate } from "~/lib/business-calendar";
import { futureVisitsNotWith, setDedicatedHandyman } from "./dedicated.server";

/**
 * 'Reassign' (issue 41, items 1 and 4): the member's dedicated handyman changes (she is told by
 * e-mail), and when asked her booked visits still to come move to him at their own day and
 * time, each with its 'moved' e-mail and calendar update. A visit he is not free for keeps its
 * handyman and is counted. Not exported by index.server: the memberships feature (which the
 * visits use) gives a new member her handyman through it, and must not load the visits.
 */
export async function reassignMember(input: {
  customerId: string;
  handymanId: string;
  staffId: string;
  moveVisits: boolean;
}) {
  const actor = { id: input.staffId, isEmployee: true };
  const result = await setDedicatedHandyman(input);
  let moved = 0;
  let kept = 0;
  if (input.moveVisits) {
    for (const visit of await futureVisitsNotWith(input.customerId, input.handymanId)) {
      try {
        await staffMoveMemberVisit(actor, visit.id, {
          date: visit.scheduledDate as IsoDate,
          startMinute: minuteOfDay(visit.startTime),
          employeeId: input.handymanId,
        });
        moved += 1;
      } catch {
        kept += 1;
      }
    }
  }
  return { ...result, moved, kept };
}

const visitsWord = (n: number) => `${n} ${n === 1 ? "visit" : "visits"}`;

/** What staff read after 'Save handyman' or 'Reassign'. */
export function reassignMessage(result: Awaited<ReturnType<typeof reassignMember>>) {
  const first = result.changed
    ? `${result.handyman.name} is now her dedicated handyman. She was told by e-mail.`
    : `${result.handyman.name} is already her dedicated handyman.`;
  const moved = result.moved ? ` ${visitsWord(result.moved)} moved to him.` : "";
  const kept = result.kept
    ? ` ${visitsWord(result.kept)} kept ${result.kept === 1 ? "its" : "their"} handyman: he is not free then.`
    : "";
  return `${first}${moved}${kept}`;
}

/** The form of 'Save handyman' (her page) and 'Reassign' ('Handymen'), answered in words. */
export async function reassignFromForm(
  values: Record<string, string | undefined>,
  customerId: string,
  staff: { id: string },
) {
  const result = await reassignMember({
    customerId,
    handymanId: values.handymanId ?? "",
    staffId: staff.id,
    moveVisits: values.moveVisits === "1",
  });
  return reassignMessage(result);
}
