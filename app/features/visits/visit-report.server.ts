import { asc, eq, inArray } from "drizzle-orm";
import { db } from "~/db/client.server";
import { appointmentTasks, membershipParts, requestPhotos } from "~/db/schema";
import type { TaskOutcome } from "~/db/visit-status";
import { timeWorked } from "~/features/memberships/index.server";

/*
 * What a finished visit did, for the member's visit page (issue 40 item 2): each task with its
 * outcome ('Done', or 'Not done': back on the list) and its photos (the member's own, and the
 * handyman's before and after ones of this visit), the time worked (with its corrections) and
 * the parts. Four reads.
 */

export type VisitReportPhoto = { id: string; name: string; taken: "before" | "after" | null };

export type VisitReport = {
  minutesWorked: number | null;
  tasks: {
    id: string;
    description: string;
    outcome: TaskOutcome | null;
    requestId: string | null;
    photos: VisitReportPhoto[];
  }[];
  parts: {
    id: string;
    description: string;
    costCents: number;
    status: "pending_approval" | "approved" | "declined" | "bought";
    hasReceipt: boolean;
  }[];
};

export async function visitReport(appointmentId: string): Promise<VisitReport> {
  const [tasks, parts, minutesWorked] = await Promise.all([
    db()
      .select({
        id: appointmentTasks.id,
        description: appointmentTasks.taskDescription,
        outcome: appointmentTasks.outcome,
        requestId: appointmentTasks.serviceRequestId,
      })
      .from(appointmentTasks)
      .where(eq(appointmentTasks.appointmentId, appointmentId))
      .orderBy(asc(appointmentTasks.id)),
    db()
      .select({
        id: membershipParts.id,
        description: membershipParts.description,
        costCents: membershipParts.costCents,
        status: membershipParts.status,
        receiptPath: membershipParts.receiptPath,
      })
      .from(membershipParts)
      .where(eq(membershipParts.appointmentId, appointmentId))
      .orderBy(asc(membershipParts.createdAt)),
    timeWorked(db(), appointmentId),
  ]);
  const requestIds = tasks.flatMap((t) => (t.requestId ? [t.requestId] : []));
  const photos = requestIds.length
    ? await db()
        .select({
          id: requestPhotos.id,
          requestId: requestPhotos.requestId,
          name: requestPhotos.fileName,
          afterVisitId: requestPhotos.afterVisitId,
          beforeVisitId: requestPhotos.beforeVisitId,
        })
        .from(requestPhotos)
        .where(inArray(requestPhotos.requestId, requestIds))
        .orderBy(asc(requestPhotos.uploadedAt), asc(requestPhotos.id))
    : [];
  return {
    minutesWorked,
    tasks: tasks.map((t) => ({
      ...t,
      photos: photos
        .filter((p) => p.requestId === t.requestId)
        // Another visit's before/after photos belong to that visit's page.
        .filter(
          (p) =>
            (p.afterVisitId === null && p.beforeVisitId === null) ||
            p.afterVisitId === appointmentId ||
            p.beforeVisitId === appointmentId,
        )
        .map((p) => ({
          id: p.id,
          name: p.name,
          taken:
            p.afterVisitId === appointmentId
              ? ("after" as const)
              : p.beforeVisitId === appointmentId
                ? ("before" as const)
                : null,
        })),
    })),
    // A part removed by the office or withdrawn at a cancel was never the member's.
    parts: parts.flatMap(({ receiptPath, status, ...p }) =>
      status === "removed" || status === "withdrawn"
        ? []
        : [{ ...p, status, hasReceipt: receiptPath !== null }],
    ),
  };
}
