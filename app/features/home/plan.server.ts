import { and, eq, isNull, sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { homeAppliances, homePlanTasks } from "~/db/schema";
import { claimActionKey } from "~/lib/action-keys.server";
import { businessToday } from "~/lib/business-calendar";
import type { HomeAccess } from "./access.server";
import { HomeRejectedError } from "./appliances.server";
import { catalogTasksFor } from "./catalog";
import { recordHistory } from "./history.server";
import { closePlanRequests } from "./plan-requests.server";
import type { PlanTaskInput } from "./schema";

/*
 * The maintenance plan (ADR 087): drawn from the catalog for the home and its appliances,
 * adjusted by the office, its tasks marked done on a visit. 'Last done' is kept; 'next due'
 * follows from it (plan-dates.ts).
 */

async function claimed(tx: DbOrTx, access: HomeAccess, key: string, action: string) {
  return claimActionKey(tx, { key, actorId: access.actor.id, action });
}

/**
 * Draws the plan: the catalog's tasks for the home and its appliances that it does not have
 * yet (a task staff removed stays removed: the unique index keeps one per catalog task).
 * Returns how many tasks were added.
 */
export async function drawPlan(access: HomeAccess, database: DbOrTx = db()) {
  return database.transaction(async (tx) => {
    const appliances = await tx
      .select({ id: homeAppliances.id, type: homeAppliances.type })
      .from(homeAppliances)
      .where(eq(homeAppliances.homeId, access.homeId));
    const tasks = catalogTasksFor(appliances.map((a) => a.type));
    const added = await tx
      .insert(homePlanTasks)
      .values(
        tasks.map((task) => ({
          homeId: access.homeId,
          catalogKey: task.key,
          title: task.title,
          months: task.months,
          estimatedMinutes: task.estimatedMinutes,
          applianceId: task.appliance
            ? (appliances.find((a) => a.type === task.appliance)?.id ?? null)
            : null,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: homePlanTasks.id });
    if (added.length)
      await recordHistory(tx, access, `Drew the maintenance plan: ${added.length} tasks added`);
    return added.length;
  });
}

export async function addPlanTask(access: HomeAccess, input: PlanTaskInput, key: string) {
  return db().transaction(async (tx) => {
    if (!(await claimed(tx, access, key, "add-task"))) return false;
    await tx.insert(homePlanTasks).values({ homeId: access.homeId, ...input });
    await recordHistory(tx, access, `Added the plan task "${input.title}"`, { ...input });
    return true;
  });
}

const taskOf = (access: HomeAccess, taskId: string) =>
  and(
    eq(homePlanTasks.id, taskId),
    eq(homePlanTasks.homeId, access.homeId),
    isNull(homePlanTasks.removedAt),
  );

export async function editPlanTask(
  access: HomeAccess,
  taskId: string,
  input: PlanTaskInput,
  key: string,
) {
  return db().transaction(async (tx) => {
    if (!(await claimed(tx, access, key, "edit-task"))) return false;
    const [before] = await tx.select().from(homePlanTasks).where(taskOf(access, taskId));
    if (!before) throw new HomeRejectedError("This task is no longer in the plan.");
    await tx.update(homePlanTasks).set(input).where(taskOf(access, taskId));
    await recordHistory(tx, access, `Changed the plan task "${input.title}"`, {
      taskId,
      from: { title: before.title, months: before.months, minutes: before.estimatedMinutes },
      to: input,
    });
    return true;
  });
}

export async function removePlanTask(access: HomeAccess, taskId: string, key: string) {
  return db().transaction(async (tx) => {
    if (!(await claimed(tx, access, key, "remove-task"))) return false;
    const [gone] = await tx
      .update(homePlanTasks)
      .set({ removedAt: sql`now()` })
      .where(taskOf(access, taskId))
      .returning({ title: homePlanTasks.title });
    if (!gone) throw new HomeRejectedError("This task is no longer in the plan.");
    await recordHistory(tx, access, `Removed the plan task "${gone.title}"`, { taskId });
    return true;
  });
}

/** A handyman's (or the office's) 'Mark done': last done today, next due moves on. */
export async function markPlanTaskDone(
  access: HomeAccess,
  taskId: string,
  key: string,
  now = new Date(),
) {
  return db().transaction(async (tx) => {
    if (!(await claimed(tx, access, key, "mark-done"))) return false;
    const [done] = await tx
      .update(homePlanTasks)
      .set({ lastDoneOn: businessToday(now) })
      .where(taskOf(access, taskId))
      .returning({ title: homePlanTasks.title });
    if (!done) throw new HomeRejectedError("This task is no longer in the plan.");
    await closePlanRequests(tx, taskId);
    await recordHistory(tx, access, `Marked "${done.title}" done`, { taskId });
    return true;
  });
}
