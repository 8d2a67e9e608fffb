import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import type { SpecialistOption } from "./refer-specialist";

/**
 * The customer's page: 'Refer a specialist' from one of her visits or requests (issue 41,
 * item 6). The referral carries the photos of the job chosen.
 */
export function StaffReferSpecialist({
  specialists,
  jobs,
  actionKey,
  outcome,
}: {
  specialists: SpecialistOption[];
  jobs: { value: string; label: string }[];
  actionKey: string;
  outcome: { ok: boolean; intent: string; message: string } | null;
}) {
  const answered = outcome?.intent === "refer" ? outcome : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Refer a specialist</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {specialists.length && jobs.length ? (
          <Form method="post" className="grid gap-3 sm:grid-cols-2">
            <input type="hidden" name="intent" value="refer" />
            <input type="hidden" name="key" value={actionKey} />
            <div className="grid gap-1.5">
              <Label htmlFor="refer-specialist">Specialist</Label>
              <NativeSelect id="refer-specialist" name="specialistId" required defaultValue="">
                <option value="">Choose a specialist</option>
                {specialists.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.label}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="refer-job">Job</Label>
              <NativeSelect id="refer-job" name="job" required defaultValue={jobs[0].value}>
                {jobs.map((j) => (
                  <option key={j.value} value={j.value}>
                    {j.label}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1.5 sm:col-span-2">
              <Label htmlFor="refer-reason">What the job needs</Label>
              <Textarea id="refer-reason" name="reason" required maxLength={1000} />
            </div>
            <div className="grid gap-2 sm:col-span-2">
              <Button type="submit" className="w-fit">
                Refer
              </Button>
              {answered ? (
                <p
                  role={answered.ok ? "status" : "alert"}
                  className={answered.ok ? "text-sm text-primary" : "text-sm text-destructive"}
                >
                  {answered.message}
                </p>
              ) : null}
            </div>
          </Form>
        ) : (
          <p className="text-sm text-muted-foreground">
            {specialists.length
              ? "She has no visit or open request to refer from."
              : "No specialists yet: add them on 'Specialists'."}
          </p>
        )}
      </CardContent>
    </Card>
  );
}
