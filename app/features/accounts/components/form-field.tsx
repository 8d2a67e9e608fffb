import type { FieldMetadata } from "@conform-to/react";
import { FormField } from "~/components/ui/conform-fields";
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
