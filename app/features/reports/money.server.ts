import { sql } from "drizzle-orm";
import { rowsOf } from "~/db/rows";
import type { IsoDate } from "~/lib/business-calendar";
import type { ReportContext } from "./report-context.server";
import type { OwnerReport, RevenueMonth } from "./report-types";

export type MoneyRow = { month: IsoDate; kind: string; cents: string | number; n: number };

/**
 * The money ledger by statement day (ADR 082) and kind, a row per month: from its daily summary
 * and the deltas not yet moved into it, the period's days, whole months or cut, from the same rows.
 */
export async function readMoney({ database, period, monthOf }: ReportContext) {
  return rowsOf<MoneyRow>(
    await database.execute(sql`
      select ${monthOf} as month, kind, sum(cents)::bigint as cents, sum(entries)::int as n
      from (
        select day, kind, cents, entries from report_money_days
        where day >= ${period.from}::date and day <= ${period.to}::date
        union all
        select day, kind, cents, entries from report_money_day_deltas
        where day >= ${period.from}::date and day <= ${period.to}::date
      ) s
      group by 1, 2`),
  );
}

/** The revenue section: each month's charges, credits, payments and refunds, and their totals. */
export function revenueSection(
  context: ReportContext,
  money: MoneyRow[],
): Pick<OwnerReport["members"], "revenue" | "revenueTotal"> {
  const revenue: RevenueMonth[] = context.months.map((b) => {
    const of = (kind: string) =>
      Number(money.find((r) => r.month === b.month && r.kind === kind)?.cents ?? 0);
    const row = {
      month: b.month,
      membershipCents: of("membership_charge"),
      extraVisitCents: of("extra_visit"),
      partsCents: of("part"),
      shoppingFeeCents: of("shopping_fee"),
      secondHandymanCents: of("second_handyman"),
      correctionCents: of("correction"),
      creditCents: 0 - of("refund"),
    };
    return {
      ...row,
      netCents:
        row.membershipCents +
        row.extraVisitCents +
        row.partsCents +
        row.shoppingFeeCents +
        row.secondHandymanCents +
        row.correctionCents -
        row.creditCents,
      paymentCents: 0 - of("payment"),
      refundCents: of("refund_paid"),
    };
  });
  const sum = (key: keyof Omit<RevenueMonth, "month">) =>
    revenue.reduce((total, r) => total + r[key], 0);
  return {
    revenue,
    revenueTotal: {
      membershipCents: sum("membershipCents"),
      extraVisitCents: sum("extraVisitCents"),
      partsCents: sum("partsCents"),
      shoppingFeeCents: sum("shoppingFeeCents"),
      secondHandymanCents: sum("secondHandymanCents"),
      correctionCents: sum("correctionCents"),
      creditCents: sum("creditCents"),
      netCents: sum("netCents"),
      paymentCents: sum("paymentCents"),
      refundCents: sum("refundCents"),
    },
  };
}

/** The period's entries of one kind of the money ledger: how many, and their cents. */
export function moneyOfKind(money: MoneyRow[], kind: string) {
  const rows = money.filter((r) => r.kind === kind);
  return {
    count: rows.reduce((t, r) => t + Number(r.n), 0),
    cents: rows.reduce((t, r) => t + Number(r.cents), 0),
  };
}
