import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import { db, type Database, type DbOrTx } from "~/db/client.server";
import { prepared } from "~/db/prepared.server";
import { tableRowsFromJson } from "~/db/rows";
import { APPLIANCE_TYPE_LABELS } from "~/db/appliance-types";
import {
  homeAppliances,
  homeHistory,
  homeLabelReads,
  homePlanTasks,
  homes,
  memberships,
} from "~/db/schema";
import { newActionKey } from "~/lib/action-keys.server";
import {
  addDays,
  businessToday,
  type IsoDate,
  plainDate,
  timestampLabel,
} from "~/lib/business-calendar";
import type { SessionUser } from "~/lib/session.server";
import { customerHomeId, homeAccess, memberAccess, type HomeAccess } from "./access.server";
import { applianceFlags } from "./lifespans";
import { PLAN_DAYS, PLAN_MIN_APPLIANCES, PLAN_MIN_TASKS } from "./catalog";
import { dueState, frequencyLabel, monthLabel, monthsLabel, nextDueMonth } from "./plan-dates";
import type { ApplianceView, HomeRecordView, PlanStatusView, PlanTaskView } from "./types";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The 60-day promise in one sentence (ADR 087). */
export function planStatus(input: {
  startDate: IsoDate;
  documented: number;
  tasks: number;
  today: IsoDate;
}): PlanStatusView {
  const dueBy = addDays(input.startDate, PLAN_DAYS);
  const ready = input.tasks >= PLAN_MIN_TASKS && input.documented >= PLAN_MIN_APPLIANCES;
  const overdue = !ready && input.today > dueBy;
  const counts = `${plural(input.documented, "appliance", "appliances")} documented, ${plural(input.tasks, "task", "tasks")} planned`;
  const sentence = ready
    ? `Your plan is ready: ${counts}`
    : overdue
      ? `Your plan was due by ${plainDate(dueBy)}: ${counts}`
      : `Your plan is due by ${plainDate(dueBy)}: ${counts}`;
  return { dueBy, ready, overdue, documented: input.documented, tasks: input.tasks, sentence };
}

/** An appliance is documented when its brand and model are on record. */
export function isDocumented(a: { brand: string | null; model: string | null }) {
  return Boolean(a.brand?.trim() && a.model?.trim());
}

export async function planTasksOf(homeId: string, database: DbOrTx = db()) {
  return database
    .select()
    .from(homePlanTasks)
    .where(and(eq(homePlanTasks.homeId, homeId), isNull(homePlanTasks.removedAt)))
    .orderBy(asc(homePlanTasks.createdAt), asc(homePlanTasks.title));
}

export function planTaskView(
  task: typeof homePlanTasks.$inferSelect,
  today: IsoDate,
): PlanTaskView {
  const since = task.createdAt.toISOString().slice(0, 10);
  const nextDue = nextDueMonth(task, since < today ? since : today);
  return {
    id: task.id,
    title: task.title,
    months: task.months,
    frequency: frequencyLabel(task.months),
    monthsLabel: monthsLabel(task.months),
    estimatedMinutes: task.estimatedMinutes,
    lastDoneOn: task.lastDoneOn,
    nextDue,
    nextDueLabel: monthLabel(nextDue),
    state: dueState(nextDue, today),
  };
}

function applianceView(a: typeof homeAppliances.$inferSelect, today: IsoDate): ApplianceView {
  return {
    id: a.id,
    type: a.type,
    typeLabel: APPLIANCE_TYPE_LABELS[a.type] ?? "Other",
    brand: a.brand,
    model: a.model,
    serialNumber: a.serialNumber,
    installedYear: a.installedYear,
    installedOn: a.installedOn,
    installedEstimated: a.installedEstimated,
    warrantyEndsOn: a.warrantyEndsOn,
    location: a.location,
    filterSize: a.filterSize,
    notes: a.notes,
    hasLabelPhoto: Boolean(a.labelPhotoPath),
    flags: applianceFlags(a, today),
  };
}

/** The active membership's start of a home, or null. */
async function membershipStart(homeId: string) {
  const [row] = await db()
    .select({ startDate: memberships.startDate })
    .from(memberships)
    .where(and(eq(memberships.homeId, homeId), eq(memberships.status, "active")));
  return row?.startDate ?? null;
}

/** The home's record as `access` may see it; `labelReadId` names a label just read. */
export async function homeRecord(
  access: HomeAccess,
  options: { labelReadId?: string | null; now?: Date } = {},
): Promise<HomeRecordView | null> {
  const [home] = await db().select().from(homes).where(eq(homes.id, access.homeId));
  return home ? recordOf(access, home, readsOf(home.id), options) : null;
}

/** What the record shows of a home beside its own row. */
type HomeReads = {
  appliances: (typeof homeAppliances.$inferSelect)[];
  /** The plan's tasks (not removed), oldest first. */
  tasks: (typeof homePlanTasks.$inferSelect)[];
  /** The last 20 entries, newest first. */
  history: (typeof homeHistory.$inferSelect)[];
  /** The start of the home's active membership, or null. */
  start: IsoDate | null;
};

async function readsOf(homeId: string): Promise<HomeReads> {
  const [appliances, tasks, history, start] = await Promise.all([
    db()
      .select()
      .from(homeAppliances)
      .where(eq(homeAppliances.homeId, homeId))
      .orderBy(asc(homeAppliances.createdAt)),
    planTasksOf(homeId),
    db()
      .select()
      .from(homeHistory)
      .where(eq(homeHistory.homeId, homeId))
      .orderBy(desc(homeHistory.createdAt))
      .limit(20),
    membershipStart(homeId),
  ]);
  return { appliances, tasks, history, start };
}

async function recordOf(
  access: HomeAccess,
  home: typeof homes.$inferSelect,
  reads: Promise<HomeReads> | HomeReads,
  options: { labelReadId?: string | null; now?: Date },
): Promise<HomeRecordView> {
  const today = businessToday(options.now);
  const [{ appliances, tasks, history, start }, labelRead] = await Promise.all([
    reads,
    options.labelReadId && /^[0-9a-f-]{36}$/.test(options.labelReadId)
      ? db()
          .select()
          .from(homeLabelReads)
          .where(
            and(eq(homeLabelReads.id, options.labelReadId), eq(homeLabelReads.homeId, home.id)),
          )
          .then((rows) => rows[0] ?? null)
      : null,
  ]);
  const taskViews = tasks
    .map((task) => planTaskView(task, today))
    .sort((a, b) => a.nextDue.localeCompare(b.nextDue) || a.title.localeCompare(b.title));
  return {
    homeId: home.id,
    address: `${home.address}, ${home.city}, ${home.state} ${home.zipCode}`,
    appliances: appliances.map((a) => applianceView(a, today)),
    tasks: taskViews,
    status: start
      ? planStatus({
          startDate: start,
          documented: appliances.filter(isDocumented).length,
          tasks: tasks.length,
          today,
        })
      : null,
    history: history.map((h) => ({
      at: h.createdAt.toISOString(),
      when: timestampLabel(h.createdAt),
      who: h.actorName,
      summary: h.summary,
    })),
    rights: access.rights,
    keySeed: newActionKey(),
    labelRead: labelRead
      ? {
          id: labelRead.id,
          brand: labelRead.brand,
          model: labelRead.model,
          serialNumber: labelRead.serialNumber,
          installedYear: labelRead.installedYear,
        }
      : null,
  };
}

/**
 * The member's own home's record ('My Home'), with a label just read (?label=). `planTasks`:
 * her homes' plan tasks not removed, in the record's order (created, then title), when the
 * caller read them already (the dashboard, ADR 102): not read a second time.
 */
export async function memberHomeRecord(
  user: SessionUser,
  labelReadId: string | null,
  planTasks?: (typeof homePlanTasks.$inferSelect)[],
) {
  if (user.isEmployee) {
    const homeId = await customerHomeId(user.id);
    const access = homeId ? await homeAccess(user, homeId) : null;
    return access ? homeRecord(access, { labelReadId }) : null;
  }
  // Her home is the one she owns: its row and its record's reads in one statement.
  const withTasks = !planTasks;
  const [row] = await prepared(memberHomeStatement(withTasks), (d) =>
    prepareMemberHome(d, withTasks),
  ).execute({ customerId: user.id });
  if (!row) return null;
  const reads: HomeReads = {
    appliances: tableRowsFromJson(homeAppliances, row.appliances),
    tasks: planTasks
      ? planTasks.filter((task) => task.homeId === row.home.id)
      : tableRowsFromJson(homePlanTasks, row.tasks!),
    history: tableRowsFromJson(homeHistory, row.history),
    start: row.start,
  };
  return recordOf(memberAccess(user, row.home), row.home, reads, { labelReadId });
}

/**
 * The same reads as `readsOf`, in the same orders, each aggregated as JSON beside the home
 * (the plan's tasks only `withTasks`). The home's id is written with its table's name: a
 * one-table select drops it from its columns, and a bare "id" inside a subquery would be the
 * subquery's own.
 */
function prepareMemberHome(database: Database, withTasks: boolean) {
  const rows = sql<Record<string, unknown>[]>;
  return database
    .select({
      home: homes,
      start: sql<IsoDate | null>`(select m.start_date from ${memberships} m
        where m.home_id = "homes"."id" and m.status = 'active' limit 1)`,
      appliances: rows`(select coalesce(json_agg(a order by a.created_at), '[]'::json)
        from ${homeAppliances} a where a.home_id = "homes"."id")`,
      tasks: withTasks
        ? rows`(select coalesce(json_agg(t order by t.created_at, t.title), '[]'::json)
          from ${homePlanTasks} t where t.home_id = "homes"."id" and t.removed_at is null)`
        : sql<null>`null`,
      history: rows`(select coalesce(json_agg(h order by h.created_at desc), '[]'::json)
        from (select * from ${homeHistory} e where e.home_id = "homes"."id"
          order by e.created_at desc limit 20) h)`,
    })
    .from(homes)
    .where(eq(homes.customerId, sql.placeholder("customerId")))
    .prepare(memberHomeStatement(withTasks));
}

function memberHomeStatement(withTasks: boolean) {
  return withTasks ? "member_home" : "member_home_given_tasks";
}

/** The records of these homes that `user` may see (a handyman: the homes of today's visits). */
export async function homeRecordsFor(user: SessionUser, homeIds: string[]) {
  const records = await Promise.all(
    [...new Set(homeIds)].map(async (id) => {
      const access = await homeAccess(user, id);
      return access ? homeRecord(access) : null;
    }),
  );
  return Object.fromEntries(
    records.filter((r): r is HomeRecordView => r !== null).map((r) => [r.homeId, r]),
  );
}
