import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import type { PartView } from "../types";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { NativeSelect } from "~/components/ui/native-select";
import { formatCents, centsAsDecimal } from "~/lib/money";
import { minuteLabel, plainDate } from "~/lib/business-calendar";
import { ReceiptPhoto } from "./receipt-photo";
import { MarkedInput, marked } from "~/components/ui/marked-field";
import { type Outcome, OutcomeLine, useBusy } from "./staff-membership-forms";

const PART_STATUS: Record<PartView["status"], string> = {
  pending_approval: "Awaiting approval",
  approved: "Approved",
  declined: "Declined",
  bought: "Bought",
  removed: "Removed",
  withdrawn: "Withdrawn (membership canceled)",
};

/** The parts forms' idempotency keys (ADR 048), drawn with the page. */
export type PartKeys = {
  add: string;
  parts: Record<string, { bought: string; remove: string; correct: string }>;
};

/** A part still charged or waiting: the office can correct or remove it (ADR 083). */
const CORRECTABLE: readonly PartView["status"][] = ["pending_approval", "approved", "bought"];

/**
 * A part's own actions: 'Mark Bought' for an approved part not yet bought; 'Correct part' (its
 * description and price) and 'Remove part' for a part that is wrong. Each form carries its own
 * idempotency key and works without JavaScript.
 */
function PartActions({
  part,
  keys,
  outcome,
}: {
  part: PartView;
  keys: { bought: string; remove: string; correct: string } | undefined;
  outcome: Outcome;
}) {
  if (!keys || !CORRECTABLE.includes(part.status)) return null;
  const id = `part-${part.id}`;
  const description = marked(outcome, "correct-part", "description", `${id}-description`, {
    partId: part.id,
  });
  const cost = marked(outcome, "correct-part", "cost", `${id}-cost`, { partId: part.id });
  // A refused correction stays open, its fields marked.
  const refused = Boolean(description.message || cost.message);
  return (
    <div className="grid w-full gap-2 sm:w-auto sm:justify-items-end">
      <div className="flex flex-wrap gap-2">
        {part.status === "approved" && (
          <Form method="post">
            <input type="hidden" name="intent" value="part-bought" />
            <input type="hidden" name="partId" value={part.id} />
            <input type="hidden" name="key" value={keys.bought} />
            <Button
              type="submit"
              size="sm"
              variant="secondary"
              aria-label={`Mark Bought: ${part.description}`}
            >
              Mark Bought
            </Button>
          </Form>
        )}
        <Form method="post">
          <input type="hidden" name="intent" value="remove-part" />
          <input type="hidden" name="partId" value={part.id} />
          <input type="hidden" name="key" value={keys.remove} />
          <Button
            type="submit"
            size="sm"
            variant="outline"
            aria-label={`Remove part: ${part.description}`}
          >
            Remove part
          </Button>
        </Form>
      </div>
      {/* Drawn again (closed, with the part as it now is) once a correction is saved. */}
      <details
        className="w-full"
        key={`${part.description}:${part.costCents}:${part.status}`}
        open={refused || undefined}
      >
        <summary className="cursor-pointer text-sm underline underline-offset-4">
          Correct part
        </summary>
        <Form method="post" className="mt-2 grid gap-2">
          <input type="hidden" name="intent" value="correct-part" />
          <input type="hidden" name="partId" value={part.id} />
          <input type="hidden" name="key" value={keys.correct} />
          <MarkedInput
            mark={description}
            id={`${id}-description`}
            label="Corrected description"
            name="description"
            defaultValue={part.description}
            required
            maxLength={200}
          />
          <MarkedInput
            mark={cost}
            id={`${id}-cost`}
            label="Corrected price (USD)"
            name="cost"
            inputMode="decimal"
            defaultValue={centsAsDecimal(part.costCents)}
            required
            maxLength={20}
          />
          <Button
            type="submit"
            size="sm"
            className="w-fit"
            aria-label={`Correct part: ${part.description}`}
          >
            Correct part
          </Button>
        </Form>
      </details>
    </div>
  );
}

export function PartsCard({
  parts,
  visits,
  outcome,
  keys,
}: {
  parts: PartView[];
  visits: { appointmentId: string; scheduledDate: string; startTime: string }[];
  outcome: Outcome;
  keys: PartKeys;
}) {
  const busy = useBusy("add-part");
  const visit = marked(outcome, "add-part", "appointmentId", "part-visit");
  const description = marked(outcome, "add-part", "description", "part-description");
  const cost = marked(outcome, "add-part", "cost", "part-cost");
  const open = visits;
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Parts ({parts.length})</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {open.length === 0 ? (
          <p className="text-sm text-muted-foreground">Parts are recorded for a visit.</p>
        ) : (
          <Form
            method="post"
            className="grid gap-4 sm:grid-cols-3 sm:items-end"
            key={outcome?.intent === "add-part" && outcome.ok ? `ok-${parts.length}` : "part"}
          >
            <input type="hidden" name="intent" value="add-part" />
            <input type="hidden" name="key" value={keys.add} />
            <div className="grid gap-1.5">
              <Label htmlFor="part-visit">Visit</Label>
              <NativeSelect id="part-visit" name="appointmentId" required {...visit.props}>
                {open.map((v) => (
                  <option key={v.appointmentId} value={v.appointmentId}>
                    {plainDate(v.scheduledDate)}, {minuteLabel(v.startTime)}
                  </option>
                ))}
              </NativeSelect>
              {visit.message}
            </div>
            <MarkedInput
              mark={description}
              id="part-description"
              label="Part description"
              name="description"
              required
              maxLength={200}
            />
            <MarkedInput
              mark={cost}
              id="part-cost"
              label="Cost (USD)"
              name="cost"
              inputMode="decimal"
              required
              maxLength={20}
            />
            <div className="grid gap-2 sm:col-span-3">
              <p className="text-sm text-muted-foreground">
                A part over $100 waits for the member&apos;s approval. The $10 shopping fee is
                charged once per visit with a bought part.
              </p>
              <Button type="submit" className="w-fit" disabled={busy}>
                {busy ? "Adding..." : "Add Part"}
              </Button>
            </div>
          </Form>
        )}
        <OutcomeLine outcome={outcome} intent="add-part" />
        <OutcomeLine outcome={outcome} intent="part-bought" />
        <OutcomeLine outcome={outcome} intent="remove-part" />
        <OutcomeLine outcome={outcome} intent="correct-part" />
        {parts.length > 0 && (
          <ul className="grid gap-2">
            {parts.map((part) => (
              <li
                key={part.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3"
              >
                <div>
                  <p className="font-medium">
                    {part.description}, {formatCents(part.costCents)}
                  </p>
                  <p className="text-sm text-muted-foreground">
                    Visit on {plainDate(part.scheduledDate)} · {PART_STATUS[part.status]}
                  </p>
                  {part.hasReceipt && <ReceiptPhoto part={part} />}
                </div>
                <PartActions part={part} keys={keys.parts[part.id]} outcome={outcome} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
