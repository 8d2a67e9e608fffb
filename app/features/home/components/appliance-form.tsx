import { APPLIANCE_TYPE_LABELS, APPLIANCE_TYPES } from "~/db/appliance-types";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import type { ApplianceView, LabelReadView } from "../types";
import { formKey, useHomeForm } from "./use-home-form";

/**
 * 'Add appliance' and an appliance's 'Edit': the type, brand, model, serial number, installed
 * (a year or a date), warranty end, location, filter size and notes. Values read from a label
 * photo come in marked "Read from the label: check before saving"; a person saves them.
 */
export function ApplianceForm({
  action,
  back,
  seed,
  appliance,
  labelRead,
}: {
  action: string;
  back: string;
  seed: string;
  appliance?: ApplianceView;
  labelRead?: LabelReadView | null;
}) {
  const { fetcher, formRef, answer, errors, pending } = useHomeForm({ clearOnSave: !appliance });
  const id = appliance ? `appliance-${appliance.id.slice(0, 8)}` : "appliance-new";
  const read = labelRead ?? null;
  const installed = appliance
    ? (appliance.installedOn ?? (appliance.installedYear ? String(appliance.installedYear) : ""))
    : read?.installedYear
      ? String(read.installedYear)
      : "";
  const text = (name: string, value: string | null | undefined) => ({
    name,
    defaultValue: value ?? "",
  });
  return (
    <fetcher.Form ref={formRef} method="post" action={action} className="grid gap-3">
      <input type="hidden" name="intent" value={appliance ? "edit-appliance" : "add-appliance"} />
      <input
        type="hidden"
        name="key"
        value={formKey(seed, appliance ? `e${appliance.id.slice(0, 8)}` : "add")}
      />
      <input type="hidden" name="back" value={back} />
      {appliance && <input type="hidden" name="id" value={appliance.id} />}
      {read && <input type="hidden" name="labelReadId" value={read.id} />}
      {read && (
        <p
          role="status"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
        >
          Read from the label: check before saving
        </p>
      )}
      <Field id={`${id}-type`} label="Type" error={errors.type}>
        {(control) => (
          <NativeSelect {...control} name="type" defaultValue={appliance?.type ?? "water_heater"}>
            {APPLIANCE_TYPES.map((type) => (
              <option key={type} value={type}>
                {APPLIANCE_TYPE_LABELS[type]}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id={`${id}-brand`} label="Brand" error={errors.brand}>
          {(control) => <Input {...control} {...text("brand", appliance?.brand ?? read?.brand)} />}
        </Field>
        <Field id={`${id}-model`} label="Model" error={errors.model}>
          {(control) => <Input {...control} {...text("model", appliance?.model ?? read?.model)} />}
        </Field>
        <Field id={`${id}-serial`} label="Serial number" error={errors.serialNumber}>
          {(control) => (
            <Input
              {...control}
              {...text("serialNumber", appliance?.serialNumber ?? read?.serialNumber)}
            />
          )}
        </Field>
        <Field
          id={`${id}-installed`}
          label="Installed"
          description={
            read?.installedYear && !appliance
              ? "An estimate from the serial number."
              : "A year (2019) or a date."
          }
          error={errors.installed}
        >
          {(control) => (
            <Input {...control} name="installed" defaultValue={installed} inputMode="numeric" />
          )}
        </Field>
        {read?.installedYear && !appliance && (
          <input type="hidden" name="installedEstimated" value="1" />
        )}
        {appliance?.installedEstimated && (
          <input type="hidden" name="installedEstimated" value="1" />
        )}
        <Field id={`${id}-warranty`} label="Warranty ends" error={errors.warrantyEndsOn}>
          {(control) => (
            <Input
              {...control}
              type="date"
              {...text("warrantyEndsOn", appliance?.warrantyEndsOn)}
            />
          )}
        </Field>
        <Field id={`${id}-location`} label="Location in the home" error={errors.location}>
          {(control) => <Input {...control} {...text("location", appliance?.location)} />}
        </Field>
        <Field id={`${id}-filter`} label="Filter size" error={errors.filterSize}>
          {(control) => <Input {...control} {...text("filterSize", appliance?.filterSize)} />}
        </Field>
      </div>
      <Field id={`${id}-notes`} label="Notes" error={errors.notes}>
        {(control) => <Textarea {...control} rows={2} {...text("notes", appliance?.notes)} />}
      </Field>
      {answer && (
        <p role={answer.ok ? "status" : "alert"} className="text-sm">
          {answer.message}
        </p>
      )}
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving..." : "Save appliance"}
        </Button>
      </div>
    </fetcher.Form>
  );
}
