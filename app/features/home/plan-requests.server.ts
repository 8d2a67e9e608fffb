import { and, eq, isNull, lt, or } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { homePlanTasks, homes } from "~/db/schema";
import { addPlanRequest, setRequestStatus } from "~/features/service-requests/index.server";
import { businessToday } from "~/lib/business-calendar";
import { planTaskView } from "./record.server";

/*
 * Due plan tasks become bookable (ADR 087): a task due this month or overdue becomes a request
 * of the member's, once per time it falls due (home_plan_tasks.requested_due_on, set under the
 * row's lock, and the unique index on the request), so it shows on the member's lists and in
 * the booking's tasks step, and is booked against the hours like any task. Finishing it 'Done'
 * on a visit records it done (visit-life.server.ts); a new request comes when it falls due again.
 */
export async function openDuePlanRequests(
  customerId: string,
  now = new Date(),
  database: DbOrTx = db(),
  /** Her homes' plan tasks not removed, when the caller read them already (ADR 102). */
  planTasks?: (typeof homePlanTasks.$inferSelect)[],
) {
  const today = businessToday(now);
  const tasks =
    planTasks ??
    (
      await database
        .select({ task: homePlanTasks })
        .from(homePlanTasks)
        .innerJoin(homes, eq(homes.id, homePlanTasks.homeId))
        .where(and(eq(homes.customerId, customerId), isNull(homePlanTasks.removedAt)))
    ).map(({ task }) => task);
  const due = tasks
    .map((task) => ({ task, view: planTaskView(task, today) }))
    .filter(
      ({ task, view }) =>
        view.state !== "later" && (!task.requestedDueOn || task.requestedDueOn < view.nextDue),
    );
  if (!due.length) return 0;
  let opened = 0;
  await database.transaction(async (tx) => {
    for (const { task, view } of due) {
      const [claimed] = await tx
        .update(homePlanTasks)
        .set({ requestedDueOn: view.nextDue })
        .where(
          and(
            eq(homePlanTasks.id, task.id),
            or(
              isNull(homePlanTasks.requestedDueOn),
              lt(homePlanTasks.requestedDueOn, view.nextDue),
            ),
          ),
        )
        .returning({ id: homePlanTasks.id });
      if (!claimed) continue;
      await addPlanRequest(tx, {
        customerId,
        homeId: task.homeId,
        title: task.title,
        planTaskId: task.id,
        planDueOn: view.nextDue,
      });
      opened++;
    }
  });
  return opened;
}

/** A plan task marked done by hand: its requests still on the lists are done with it. */
export async function closePlanRequests(tx: DbOrTx, taskId: string) {
  await setRequestStatus(tx, { planTaskId: taskId }, "complete", { from: ["new", "reviewed"] });
}
