import { sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { rowsOf } from "~/db/rows";
import { TRADE_LABELS, type SpecialistTrade } from "~/db/specialist-trade";
import { BUSINESS_TIME_ZONE } from "~/lib/business-calendar";
import type { Period } from "./period";
import { percent, share, type ReportTable } from "./tables";

/*
 * The reports of issue 41 (ADR 088): the share of the period's completed visits done by the
 * member's dedicated handyman, and the referrals per specialist with how many became jobs
 * (their status 'Scheduled' or 'Done').
 */

export async function careTables(period: Period, database: DbOrTx = db()): Promise<ReportTable[]> {
  const [visits] = rowsOf<{ total: number; dedicated: number; covered: number }>(
    await database.execute(sql`
      select count(*)::int as total,
        count(*) filter (where a.assigned_employee_id = p.dedicated_handyman_id)::int as dedicated,
        count(*) filter (where a.covering_for_id is not null)::int as covered
      from appointments a
      join profiles p on p.user_id = a.customer_id
      where a.kind = 'visit' and a.status = 'completed'
        and a.scheduled_date between ${period.from} and ${period.to}`),
  );
  const referrals = rowsOf<{ company: string; trade: string; referred: number; jobs: number }>(
    await database.execute(sql`
      select s.company, s.trade, count(r.id)::int as referred,
        count(r.id) filter (where r.status in ('scheduled', 'done'))::int as jobs
      from specialists s
      join specialist_referrals r on r.specialist_id = s.id
      where (r.created_at at time zone ${BUSINESS_TIME_ZONE})::date between ${period.from} and ${period.to}
      group by s.id, s.company, s.trade
      order by count(r.id) desc, s.company`),
  );
  return [
    {
      id: "dedicated-share",
      title: "Visits done by the member's dedicated handyman",
      columns: ["Completed visits", "By her dedicated handyman", "Share", "Covered for him"],
      rows: [
        [
          String(visits?.total ?? 0),
          String(visits?.dedicated ?? 0),
          percent(share(visits?.dedicated ?? 0, visits?.total ?? 0)),
          String(visits?.covered ?? 0),
        ],
      ],
    },
    {
      id: "referrals-by-specialist",
      title: "Referrals per specialist",
      columns: ["Specialist", "Trade", "Referrals", "Became jobs"],
      rows: referrals.map((r) => [
        r.company,
        TRADE_LABELS[r.trade as SpecialistTrade] ?? r.trade,
        String(r.referred),
        `${r.jobs} (${percent(share(r.jobs, r.referred))})`,
      ]),
    },
  ];
}
