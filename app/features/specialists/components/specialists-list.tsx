import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { marked } from "~/components/ui/marked-field";
import { SpecialistFields, type SpecialistValues } from "./specialist-fields";
import { formatCents } from "~/lib/money";
import type { FormAnswer } from "~/lib/form-answer";

/** The page's last answer (ADR 033): its form (`intent`, the specialist's or referral's `id`). */
export type Outcome = FormAnswer<{ intent: string; message: string; id?: string }> | null;

export type SpecialistItem = SpecialistValues & { id: string; tradeLabel: string; active: boolean };

export const feeLabel = (cents: number | null) => (cents === null ? null : formatCents(cents));

export function OutcomeLine({
  outcome,
  intent,
  id,
}: {
  outcome: Outcome;
  intent: string;
  id?: string;
}) {
  if (!outcome || outcome.intent !== intent || (id && outcome.id !== id)) return null;
  return (
    <p
      role={outcome.ok ? "status" : "alert"}
      className={outcome.ok ? "text-sm text-primary" : "text-sm font-medium text-destructive"}
    >
      {outcome.message}
    </p>
  );
}

/** 'Specialists' (issue 41, item 5): the list office staff keep, 'Add specialist' first. */
export function SpecialistsList({
  specialists,
  addKey,
  outcome,
}: {
  specialists: SpecialistItem[];
  addKey: string;
  outcome: Outcome;
}) {
  const navigation = useNavigation();
  const adding = navigation.state === "submitting" && navigation.formData?.get("intent") === "add";
  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Add specialist</h2>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <Form
            method="post"
            className="grid gap-3"
            key={outcome?.intent === "add" && outcome.ok ? `added-${addKey}` : "add"}
          >
            <input type="hidden" name="intent" value="add" />
            <input type="hidden" name="key" value={addKey} />
            <SpecialistFields prefix="new" mark={(name, id) => marked(outcome, "add", name, id)} />
            <Button type="submit" className="w-fit" disabled={adding}>
              {adding ? "Adding..." : "Add specialist"}
            </Button>
            <OutcomeLine outcome={outcome} intent="add" />
          </Form>
        </CardContent>
      </Card>
      {specialists.length === 0 ? (
        <p className="text-muted-foreground">No specialists yet.</p>
      ) : (
        <ul className="grid gap-3" aria-label="Specialists">
          {specialists.map((s) => (
            <li key={s.id}>
              <SpecialistCard specialist={s} outcome={outcome} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function SpecialistCard({
  specialist: s,
  outcome,
}: {
  specialist: SpecialistItem;
  outcome: Outcome;
}) {
  const fee = feeLabel(s.referralFeeCents);
  // This specialist's 'Save' refused: the form stays open, each refused field marked.
  const ours = outcome?.intent === "save" && outcome.id === s.id ? outcome : null;
  const refused = Boolean(ours && !ours.ok && ours.result?.error);
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h3 className="text-base">
            {s.company} · {s.tradeLabel}
            {s.active ? "" : " (off the list)"}
          </h3>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        <p>{[s.contactName, s.phone, s.email].filter(Boolean).join(" · ") || "No contact yet"}</p>
        <p className="text-muted-foreground">
          License: {s.licenseNumber ?? "not given"} · Referral fee: {fee ?? "none"}
        </p>
        {s.notes ? <p className="whitespace-pre-line text-muted-foreground">{s.notes}</p> : null}
        <OutcomeLine outcome={outcome} intent="save" id={s.id} />
        <details open={refused || undefined}>
          <summary className="cursor-pointer underline underline-offset-4">
            Edit {s.company}
          </summary>
          <Form method="post" className="mt-3 grid gap-3">
            <input type="hidden" name="intent" value="save" />
            <input type="hidden" name="id" value={s.id} />
            <SpecialistFields
              prefix={`s-${s.id}`}
              values={s}
              mark={(name, id) => marked(ours, "save", name, id)}
            />
            <label className="flex items-center gap-2">
              <input type="checkbox" name="active" value="1" defaultChecked={s.active} />
              On the list (offered for referrals)
            </label>
            <Button type="submit" className="w-fit" aria-label={`Save ${s.company}`}>
              Save
            </Button>
          </Form>
        </details>
      </CardContent>
    </Card>
  );
}
