import type { FieldMetadata } from "@conform-to/react";
import { FormField, TextareaField } from "~/components/ui/conform-fields";
import { US_STATES } from "../us-states";

/**
 * State: a text input offering the US states as a list (datalist), holding Georgia to start.
 * Typing a code ("GA") or a name ("Georgia") works too, with or without JavaScript; the schema
 * keeps the USPS code.
 */
export function StateField({
  meta,
  className,
}: {
  meta: FieldMetadata<string | null | undefined>;
  className?: string;
}) {
  const listId = `${meta.id}-states`;
  return (
    <>
      <FormField
        meta={meta}
        label="State"
        autoComplete="address-level1"
        list={listId}
        autoCapitalize="characters"
        className={className}
      />
      <datalist id={listId}>
        {US_STATES.map(([code, name]) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </datalist>
    </>
  );
}

type AddressField = FieldMetadata<string | null | undefined>;

/** A home's address and notes: the property setup dialog's and the Home Address card's fields. */
export function HomeAddressFields({
  fields,
  notesLabel,
  notesPlaceholder,
}: {
  fields: Record<"address" | "city" | "state" | "zipCode" | "propertyNotes", AddressField>;
  notesLabel: string;
  notesPlaceholder: string;
}) {
  return (
    <>
      <FormField
        meta={fields.address}
        label="Street Address"
        autoComplete="street-address"
        autoFocus
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField meta={fields.city} label="City" autoComplete="address-level2" />
        <StateField meta={fields.state} />
        <FormField
          meta={fields.zipCode}
          label="ZIP Code"
          autoComplete="postal-code"
          inputMode="numeric"
        />
      </div>
      <TextareaField
        meta={fields.propertyNotes}
        label={notesLabel}
        placeholder={notesPlaceholder}
        rows={3}
      />
    </>
  );
}
