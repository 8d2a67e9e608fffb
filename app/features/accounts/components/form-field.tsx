import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { cn } from "~/lib/utils";
import { US_STATES } from "../us-states";
import { PasswordInput } from "./password-input";

type FieldProps = {
  meta: FieldMetadata<string | null | undefined>;
  label: string;
  type?: "text" | "email" | "tel" | "password";
  hint?: React.ReactNode;
  className?: string;
} & Omit<React.ComponentProps<"input">, "type" | "name" | "id" | "defaultValue">;

/** A labelled input with its error message tied to it (aria-describedby, aria-invalid). */
export function FormField({ meta, label, type = "text", hint, className, ...rest }: FieldProps) {
  const inputProps = getInputProps(meta, { type, ariaAttributes: true });
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const describedBy =
    [hintId, meta.errors?.length ? meta.errorId : undefined].filter(Boolean).join(" ") || undefined;
  const props = {
    ...inputProps,
    ...rest,
    required: undefined,
    "aria-describedby": describedBy,
    key: undefined,
  };
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={meta.id}>{label}</Label>
      {type === "password" ? (
        <PasswordInput {...props} key={inputProps.key} />
      ) : (
        <Input {...props} key={inputProps.key} />
      )}
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      <FieldError id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

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

export function TextareaField({
  meta,
  label,
  className,
  ...rest
}: {
  meta: FieldMetadata<string | null | undefined>;
  label: string;
  className?: string;
} & Omit<React.ComponentProps<"textarea">, "name" | "id" | "defaultValue">) {
  const describedBy = meta.errors?.length ? meta.errorId : undefined;
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={meta.id}>{label}</Label>
      <Textarea
        id={meta.id}
        name={meta.name}
        defaultValue={meta.initialValue as string | undefined}
        aria-invalid={meta.errors?.length ? true : undefined}
        aria-describedby={describedBy}
        key={meta.key}
        {...rest}
      />
      <FieldError id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="text-sm text-destructive">
      {errors[0]}
    </p>
  );
}
