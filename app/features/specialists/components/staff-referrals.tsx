import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { marked } from "~/components/ui/marked-field";
import { NativeSelect } from "~/components/ui/native-select";
import {
  REFERRAL_STATUSES,
  REFERRAL_STATUS_LABELS,
  type ReferralStatus,
} from "~/db/specialist-trade";
import { OutcomeLine, type Outcome } from "./specialists-list";

export type StaffReferral = {
  id: string;
  status: ReferralStatus;
  reason: string;
  createdAt: string;
  consented: boolean;
  customerId: string;
  company: string;
  memberName: string;
};

/** The referrals made, newest first, each with its status for the office to keep. */
export function StaffReferrals({
  referrals,
  outcome,
}: {
  referrals: StaffReferral[];
  outcome: Outcome;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Referrals</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {referrals.length === 0 ? (
          <p className="text-muted-foreground">No referrals yet.</p>
        ) : (
          <ul className="grid gap-3" aria-label="Referrals">
            {referrals.map((r) => {
              const status = marked(
                outcome?.id === r.id ? outcome : null,
                "status",
                "status",
                `status-${r.id}`,
              );
              return (
                <li key={r.id} className="grid gap-1 border-t pt-3 text-sm first:border-t-0">
                  <p className="font-medium">
                    <Link
                      to={`/employee/customers/${r.customerId}/membership`}
                      className="underline underline-offset-4"
                    >
                      {r.memberName}
                    </Link>{" "}
                    to {r.company}
                  </p>
                  <p>{r.reason}</p>
                  <p className="text-muted-foreground">
                    {r.consented ? "She agreed: the job was sent." : "Waiting for her consent."}
                  </p>
                  <Form method="post" className="flex flex-wrap items-center gap-2">
                    <input type="hidden" name="intent" value="status" />
                    <input type="hidden" name="id" value={r.id} />
                    <input type="hidden" name="referralId" value={r.id} />
                    <label htmlFor={`status-${r.id}`} className="sr-only">
                      Status of {r.memberName}&apos;s referral to {r.company}
                    </label>
                    <NativeSelect
                      id={`status-${r.id}`}
                      name="status"
                      defaultValue={r.status}
                      wrapperClassName="w-40"
                      {...status.props}
                    >
                      {REFERRAL_STATUSES.map((s) => (
                        <option key={s} value={s}>
                          {REFERRAL_STATUS_LABELS[s]}
                        </option>
                      ))}
                    </NativeSelect>
                    <Button type="submit" variant="outline" size="sm">
                      Save status
                    </Button>
                    {status.message}
                  </Form>
                  <OutcomeLine outcome={outcome} intent="status" id={r.id} />
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
