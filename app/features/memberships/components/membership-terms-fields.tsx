import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { PLANS } from "~/content/plans";
import { addYears, DATE_WINDOW, type IsoDate } from "~/lib/business-calendar";

/**
 * A membership's terms as staff choose them: 'Plan', 'Billing' and 'Start date', for starting a
 * membership and for sending an offer (issue 27). `bounded` keeps the start date in ADR 039's
 * window in the browser too.
 */
export function MembershipTermsFields({
  idPrefix,
  today,
  bounded = false,
}: {
  idPrefix: string;
  today: IsoDate;
  bounded?: boolean;
}) {
  return (
    <>
      <div className="grid gap-1.5">
        <Label htmlFor={`${idPrefix}-plan`}>Plan</Label>
        <NativeSelect id={`${idPrefix}-plan`} name="plan" defaultValue="complete" required>
          {PLANS.map((plan) => (
            <option key={plan.id} value={plan.id}>
              {plan.name} (${plan.pricePerMonth}/month)
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${idPrefix}-billing`}>Billing</Label>
        <NativeSelect id={`${idPrefix}-billing`} name="billing" defaultValue="monthly" required>
          <option value="monthly">Monthly</option>
          <option value="annual">Annual (12 months upfront)</option>
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${idPrefix}-start`}>Start date</Label>
        <Input
          id={`${idPrefix}-start`}
          name="startDate"
          type="date"
          defaultValue={today}
          min={bounded ? addYears(today, -DATE_WINDOW.membershipStart.yearsBack) : undefined}
          max={bounded ? addYears(today, DATE_WINDOW.membershipStart.yearsAhead) : undefined}
          required
        />
      </div>
    </>
  );
}
