import { sql } from "drizzle-orm";
import { rowsOf } from "~/db/rows";
import { BUSY_VISIT_STATUSES } from "~/db/visit-status";
import { SECOND_HANDYMAN_FEE_LABEL } from "~/features/memberships/index.server";
import type { ReportContext } from "./report-context.server";
import { moneyOfKind, type MoneyRow } from "./money.server";
import type { OwnerReport } from "./report-types";

/**
 * Two handymen on one visit (ADR 091, 099): the period's two-handymen visits (not canceled) and
 * their fees, each on the visit's day as the statement dates it (ADR 082). The charges are the
 * money ledger's `second_handyman` rows; their reversals and charges again are corrections,
 * told from the others by their words.
 */
export async function twoHandymenSection(
  { database, period }: ReportContext,
  moneyRows: Promise<MoneyRow[]>,
): Promise<OwnerReport["twoHandymen"]> {
  const inPeriod = sql`a.scheduled_date >= ${period.from}::date and a.scheduled_date <= ${period.to}::date`;
  const [rows, money] = await Promise.all([
    database.execute(sql`
      select
        (select count(*)::int from appointments a
          where a.second_handyman_id is not null and ${inPeriod}
            and a.status in (${sql.join(
              BUSY_VISIT_STATUSES.map((status) => sql`${status}`),
              sql`, `,
            )})) as visits,
        (select coalesce(sum(l.amount_cents), 0)::bigint
          from appointments a
          join membership_money_ledger l on l.appointment_id = a.id
          where ${inPeriod} and l.kind = 'correction'
            and l.description like ${`${SECOND_HANDYMAN_FEE_LABEL}%`}) as "correctionCents"`),
    moneyRows,
  ]);
  const [row] = rowsOf<{ visits: number; correctionCents: string | number }>(rows);
  const charged = moneyOfKind(money, "second_handyman");
  const correctionCents = Number(row?.correctionCents ?? 0);
  return {
    visits: Number(row?.visits ?? 0),
    feesCharged: charged.count,
    feesChargedCents: charged.cents,
    correctionCents,
    feeCents: charged.cents + correctionCents,
  };
}
