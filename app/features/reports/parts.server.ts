import { sql } from "drizzle-orm";
import { rowsOf } from "~/db/rows";
import { ts, type ReportContext } from "./report-context.server";
import { moneyOfKind, type MoneyRow } from "./money.server";
import type { OwnerReport } from "./report-types";

/**
 * The parts section: approvals pending at the as-of instant, the period's decisions and how long
 * they took, and the parts and shopping fees charged (from the money ledger's rows).
 */
export async function partsSection(
  context: ReportContext,
  moneyRows: Promise<MoneyRow[]>,
): Promise<OwnerReport["parts"]> {
  const { database, from, until } = context;
  const at = ts(context.asOfInstant);
  const pending = sql`needs_approval and created_at < ${at}
    and (decided_at is null or decided_at >= ${at})
    and (removed_at is null or removed_at >= ${at})`;
  const decided = sql`decided_at >= ${ts(from)} and decided_at < ${ts(until)}`;
  const [rows, money] = await Promise.all([
    database.execute(sql`
      select
        count(*) filter (where ${pending})::int as "pendingCount",
        coalesce(sum(cost_cents) filter (where ${pending}), 0)::bigint as "pendingCents",
        count(*) filter (where ${decided})::int as decided,
        round(avg(extract(epoch from decided_at - created_at) / 864)
          filter (where ${decided}))::int as "averageDecisionHundredths"
      from membership_parts
      where needs_approval and (decided_at is null or decided_at >= ${ts(from)})`),
    moneyRows,
  ]);
  const [parts] = rowsOf<{
    pendingCount: number;
    pendingCents: string;
    decided: number;
    averageDecisionHundredths: number | null;
  }>(rows);
  const bought = moneyOfKind(money, "part");
  const fees = moneyOfKind(money, "shopping_fee");
  return {
    pendingCount: Number(parts?.pendingCount ?? 0),
    pendingCents: Number(parts?.pendingCents ?? 0),
    decided: Number(parts?.decided ?? 0),
    averageDecisionHundredths:
      parts?.averageDecisionHundredths === null || parts?.averageDecisionHundredths === undefined
        ? null
        : Number(parts.averageDecisionHundredths),
    partsCount: bought.count,
    partsCents: bought.cents,
    shoppingFeeCount: fees.count,
    shoppingFeeCents: fees.cents,
  };
}
