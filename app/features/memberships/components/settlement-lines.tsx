import { settlementLineText } from "../settlement";
import type { SettlementView } from "../types";

/**
 * A cancellation's settlement line by line (ADR 058): the same lines the cancel dialog shows
 * before, the e-mail after, and the canceled membership's page for good.
 */
export function SettlementLines({
  settlement,
  testId = "settlement",
  sent = [],
  sentInFull = false,
}: {
  settlement: SettlementView;
  testId?: string;
  /** The refunds sent since (a canceled membership's page): said instead of the promise. */
  sent?: string[];
  sentInFull?: boolean;
}) {
  return (
    <div className="grid gap-1" data-testid={testId}>
      <ul className="grid gap-1 text-sm" aria-label="How the amount is reached">
        {settlement.lines.map((line, i) => (
          <li key={`${i}-${line.label}`} data-testid={`${testId}-line`}>
            {settlementLineText(line, i === 0)}
          </li>
        ))}
      </ul>
      <p className="text-xl font-bold" data-testid={`${testId}-result`}>
        {settlement.resultLabel}
      </p>
      {settlement.howLabel && !sentInFull && <p className="text-sm">{settlement.howLabel}</p>}
      {sent.length > 0 && (
        <ul className="grid gap-1 text-sm" aria-label="Refunds sent">
          {sent.map((line, i) => (
            <li key={`${i}-${line}`} data-testid={`${testId}-sent`}>
              {line}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
