import { useEffect, useId, useState } from "react";
import { href, useFetcher } from "react-router";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { VISIT_BLOCKS } from "~/content/plans";
import { hoursText } from "~/lib/hours";

type SpendResult =
  | { ok: true; member: false }
  | {
      ok: true;
      member: true;
      planName: string;
      meterLabel: string;
      spend: { kind: "bank" | "extra" | "refused"; label: string; reason: string | null } | null;
    }
  | { ok: false; message: string };

function addMinutes(time: string, minutes: number) {
  const [h, m] = time.split(":").map(Number);
  const total = h * 60 + m + minutes;
  if (total >= 24 * 60) return "";
  return `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
}

function blockOf(start: string, end: string) {
  const toMinutes = (t: string) => {
    const [h, m] = t.split(":").map(Number);
    return h * 60 + m;
  };
  if (!start || !end) return VISIT_BLOCKS[0];
  const block = toMinutes(end) - toMinutes(start);
  return (VISIT_BLOCKS as readonly number[]).includes(block) ? block : VISIT_BLOCKS[0];
}

/**
 * In 'Create New Appointment', for a member: the visit block (1 h 45 min or 3 h 30 min, which
 * sets the end time), 'Book as an extra visit', and what the visit will spend, before anyone
 * confirms it. Shows nothing for a customer without a membership.
 */
export function MemberVisitFields({
  customerId,
  date,
  startTime,
  endTime,
  onEndTime,
  asExtra,
  onAsExtra,
}: {
  customerId: string;
  date: string;
  startTime: string;
  endTime: string;
  onEndTime: (end: string) => void;
  asExtra: boolean;
  onAsExtra: (value: boolean) => void;
}) {
  const id = useId();
  const spend = useFetcher<SpendResult>();
  // The chosen block; the end time follows it (and a typed end time that makes a block, too).
  const [chosen, setChosen] = useState<number>(() => blockOf(startTime, endTime));
  const block = chosen;
  const load = spend.load;
  useEffect(() => {
    if (!customerId) return;
    const query = new URLSearchParams({ date, block: String(block) });
    if (asExtra) query.set("asExtra", "on");
    load(
      `${href("/employee/customers/:customerId/visit-spend", { customerId: encodeURIComponent(customerId) })}?${query}`,
    );
  }, [customerId, date, block, asExtra, load]);

  const result = spend.data;
  const member = Boolean(result?.ok && result.member);
  // A member's visit is a block: once the start is known, the end follows it.
  const blockEnd = startTime ? addMinutes(startTime, block) : "";
  useEffect(() => {
    if (member && blockEnd && blockEnd !== endTime) onEndTime(blockEnd);
  }, [member, blockEnd, endTime, onEndTime]);

  if (!customerId || !result?.ok || !result.member) return null;
  return (
    <div className="grid gap-3 rounded-md border p-3 sm:col-span-2">
      <p className="text-sm">
        Member: {result.planName}, {result.meterLabel}
      </p>
      <div className="grid gap-1.5 sm:max-w-64">
        <Label htmlFor={`${id}-block`}>Visit block</Label>
        <NativeSelect
          id={`${id}-block`}
          value={String(block)}
          onChange={(event) => setChosen(Number(event.target.value))}
        >
          {VISIT_BLOCKS.map((minutes) => (
            <option key={minutes} value={minutes}>
              {hoursText(minutes)}
            </option>
          ))}
        </NativeSelect>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          name="asExtra"
          checked={asExtra}
          onChange={(event) => onAsExtra(event.target.checked)}
          className="size-4"
        />
        Book as an extra visit ($150, not from the hours)
      </label>
      {result.spend && (
        <p
          role="status"
          data-testid="visit-spend"
          className={
            result.spend.kind === "refused"
              ? "text-sm font-medium text-destructive"
              : "text-sm font-medium"
          }
        >
          {result.spend.label}
          {result.spend.reason && result.spend.kind === "extra" ? ` (${result.spend.reason})` : ""}
        </p>
      )}
    </div>
  );
}
