import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { TWO_HANDYMEN_LABEL, twoHandymenOffer } from "~/lib/two-handymen";

/**
 * The office adds or removes a booked visit's second handyman (ADR 091): the member is e-mailed
 * and the fee charged or reversed. One post per key (a form sent twice acts once).
 */
export function SecondHandymanForm({
  secondId,
  firstId,
  employees,
  feeCents,
  actionKey,
  busy,
}: {
  secondId: string | null;
  firstId: string | null;
  employees: { userId: string; name: string }[];
  feeCents: number;
  actionKey: string;
  busy: boolean;
}) {
  return (
    <Form method="post" className="grid gap-2 border-t pt-3" aria-label={TWO_HANDYMEN_LABEL}>
      <input type="hidden" name="intent" value="second-handyman" />
      <input type="hidden" name="key" value={actionKey} />
      <h2 className="text-lg font-semibold">{TWO_HANDYMEN_LABEL}</h2>
      <p className="text-sm text-muted-foreground">{twoHandymenOffer(feeCents)}</p>
      <div className="grid gap-1">
        <Label htmlFor="second-handyman">Second handyman</Label>
        <NativeSelect id="second-handyman" name="second" defaultValue={secondId ?? ""}>
          <option value="">None (one handyman)</option>
          {employees
            .filter((e) => e.userId !== firstId)
            .map((e) => (
              <option key={e.userId} value={e.userId}>
                {e.name}
              </option>
            ))}
        </NativeSelect>
      </div>
      <Button type="submit" variant="outline" className="w-full sm:w-fit" disabled={busy}>
        Save second handyman
      </Button>
    </Form>
  );
}
