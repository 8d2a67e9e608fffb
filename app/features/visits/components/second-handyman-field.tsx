import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { useBusiness } from "~/lib/business";
import { TWO_HANDYMEN_LABEL, twoHandymenOffer } from "~/lib/two-handymen";

/** 'Two handymen' on Create Appointment: the second handyman, with the fee (ADR 091). */
export function SecondHandymanField({
  id,
  name,
  errors,
  employees,
}: {
  id: string;
  name: string;
  errors?: string[];
  employees: { userId: string; name: string }[];
}) {
  const business = useBusiness();
  return (
    <div className="grid gap-1.5 sm:col-span-3">
      <Label htmlFor={id}>{TWO_HANDYMEN_LABEL}</Label>
      <NativeSelect
        id={id}
        name={name}
        defaultValue=""
        aria-describedby={`${id}-offer${errors?.length ? ` ${id}-error` : ""}`}
        aria-invalid={errors?.length ? true : undefined}
      >
        <NativeSelectOption value="">No, one handyman</NativeSelectOption>
        {employees.map((employee) => (
          <NativeSelectOption key={employee.userId} value={employee.userId}>
            {`Second handyman: ${employee.name}`}
          </NativeSelectOption>
        ))}
      </NativeSelect>
      <p id={`${id}-offer`} className="text-sm text-muted-foreground">
        {twoHandymenOffer(business.secondHandymanFeeCents)}
      </p>
      {errors?.length ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {errors[0]}
        </p>
      ) : null}
    </div>
  );
}
