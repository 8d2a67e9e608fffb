import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import type { HandymanCard } from "../types";
import { HandymanAvatar } from "./handyman-avatar";

type Outcome = { ok: boolean; intent: string; message: string } | null;

/**
 * The customer's page: her 'Dedicated handyman', which office staff set or change (issue 41,
 * item 1). 'Also move her future visits' gives him the visits booked with someone else.
 */
export function DedicatedHandymanForm({
  current,
  proposed,
  handymen,
  outcome,
}: {
  current: HandymanCard | null;
  /** Who a new member would get (fewest members in her area), preselected when none is set. */
  proposed: string | null;
  handymen: HandymanCard[];
  outcome: Outcome;
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "dedicated-handyman";
  const answered = outcome?.intent === "dedicated-handyman" ? outcome : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Dedicated handyman</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {current ? (
          <div className="flex items-center gap-3">
            <HandymanAvatar handyman={current} className="size-10" />
            <p data-testid="dedicated-handyman-name" className="font-medium">
              {current.name}
            </p>
          </div>
        ) : (
          <p className="text-muted-foreground">No dedicated handyman yet.</p>
        )}
        {handymen.length ? (
          <Form method="post" className="grid gap-3 sm:grid-cols-2 sm:items-end">
            <input type="hidden" name="intent" value="dedicated-handyman" />
            <div className="grid gap-1.5">
              <Label htmlFor="dedicated-handyman">Dedicated handyman</Label>
              <NativeSelect
                id="dedicated-handyman"
                name="handymanId"
                defaultValue={current?.id ?? proposed ?? ""}
                required
              >
                {current ? null : <option value="">Choose a handyman</option>}
                {handymen.map((h) => (
                  <option key={h.id} value={h.id}>
                    {h.name}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="moveVisits" value="1" className="size-4" />
              Also move her future visits to him
            </label>
            <div className="grid gap-2 sm:col-span-2">
              <Button type="submit" className="w-fit" disabled={busy}>
                {busy ? "Saving..." : "Save handyman"}
              </Button>
              {answered ? (
                <p
                  role={answered.ok ? "status" : "alert"}
                  className={
                    answered.ok ? "text-sm text-primary" : "text-sm font-medium text-destructive"
                  }
                >
                  {answered.message}
                </p>
              ) : null}
            </div>
          </Form>
        ) : (
          <p className="text-sm text-muted-foreground">
            No employee has the role Handyman yet (set it on Working hours).
          </p>
        )}
      </CardContent>
    </Card>
  );
}
