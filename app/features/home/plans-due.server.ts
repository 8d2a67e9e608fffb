import { sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { addDays, businessToday, type IsoDate } from "~/lib/business-calendar";
import { PLAN_DAYS, PLAN_MIN_APPLIANCES, PLAN_MIN_TASKS, PLANS_DUE_WINDOW_DAYS } from "./catalog";
import { planStatus } from "./record.server";
import type { PlanStatusView } from "./types";
import { personName } from "~/lib/names";

export type PlanDue = {
  customerId: string;
  name: string;
  address: string;
  status: PlanStatusView;
};

/**
 * The office's 'Plans due' (ADR 087): active members whose 60 days end within 14 days, or have
 * passed, without a plan of 10 tasks and a documented appliance. Soonest first.
 */
export async function plansDue(now = new Date(), database: DbOrTx = db()): Promise<PlanDue[]> {
  return (await plansDueRows(now, database, { limit: 500, offset: 0 })).plans;
}

/** 'Plans due' a page at a time, as the office's Customers tab shows it (`?ppage=`). */
export const PLANS_DUE_PAGE_SIZE = 25;

export async function plansDuePage(page: number, now = new Date(), database: DbOrTx = db()) {
  const { plans, total } = await plansDueRows(now, database, {
    limit: PLANS_DUE_PAGE_SIZE,
    offset: (page - 1) * PLANS_DUE_PAGE_SIZE,
  });
  return { plans, total, page, pageCount: Math.max(1, Math.ceil(total / PLANS_DUE_PAGE_SIZE)) };
}

async function plansDueRows(
  now: Date,
  database: DbOrTx,
  window: { limit: number; offset: number },
) {
  const today = businessToday(now);
  // A membership is due when its start is on or before this day (start + 60 <= today + 14).
  const latestStart: IsoDate = addDays(today, PLANS_DUE_WINDOW_DAYS - PLAN_DAYS);
  const result = await database.execute<{
    customer_id: string;
    first_name: string | null;
    last_name: string | null;
    email: string;
    address: string;
    start_date: string;
    tasks: number;
    documented: number;
    total: number;
  }>(sql`
    select *, count(*) over ()::int as total from (
    select m.customer_id, p.first_name, p.last_name, u.email, m.start_date::text as start_date,
      h.address || ', ' || h.city as address,
      (select count(*)::int from home_plan_tasks t
        where t.home_id = m.home_id and t.removed_at is null) as tasks,
      (select count(*)::int from home_appliances a
        where a.home_id = m.home_id and coalesce(btrim(a.brand), '') <> ''
          and coalesce(btrim(a.model), '') <> '') as documented
    from memberships m
    join homes h on h.id = m.home_id
    join "user" u on u.id = m.customer_id
    left join profiles p on p.user_id = m.customer_id
    where m.status = 'active' and m.start_date <= ${latestStart}::date
    ) due
    where not (due.tasks >= ${PLAN_MIN_TASKS} and due.documented >= ${PLAN_MIN_APPLIANCES})
    order by due.start_date, due.customer_id
    limit ${window.limit} offset ${window.offset}`);
  const plans = result.rows.map((r) => ({
    customerId: r.customer_id,
    name: personName(r.first_name, r.last_name) || r.email,
    address: r.address,
    status: planStatus({
      startDate: r.start_date,
      documented: r.documented,
      tasks: r.tasks,
      today,
    }),
  }));
  return { plans, total: result.rows[0]?.total ?? 0 };
}
