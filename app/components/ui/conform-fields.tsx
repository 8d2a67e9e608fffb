import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Field } from "./field";
import { Input } from "./input";
import { Textarea } from "./textarea";
import { PasswordInput } from "./password-input";

/*
 * The product's Field (./field.tsx) bound to a Conform field's metadata: its id, name, value,
 * messages and their ARIA ties come from the form.
 */

type FieldProps = {
  meta: FieldMetadata<string | null | undefined>;
  label: string;
  type?: "text" | "email" | "tel" | "password" | "date" | "time";
  hint?: React.ReactNode;
  className?: string;
} & Omit<React.ComponentProps<"input">, "type" | "name" | "id" | "defaultValue">;

/** A Conform field as the product's Field: an input (or the password input) with its label. */
export function FormField({ meta, label, type = "text", hint, className, ...rest }: FieldProps) {
  const {
    key,
    required: _required,
    ...inputProps
  } = getInputProps(meta, {
    type,
    ariaAttributes: false,
  });
  const Control = type === "password" ? PasswordInput : Input;
  return (
    <Field
      id={meta.id}
      label={label}
      description={hint}
      error={meta.errors?.[0]}
      errorId={meta.errorId}
      className={className}
    >
      {(control) => <Control key={key} {...inputProps} {...rest} {...control} />}
    </Field>
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
  return (
    <Field
      id={meta.id}
      label={label}
      error={meta.errors?.[0]}
      errorId={meta.errorId}
      className={className}
    >
      {(control) => (
        <Textarea
          key={meta.key}
          name={meta.name}
          defaultValue={meta.initialValue as string | undefined}
          {...rest}
          {...control}
        />
      )}
    </Field>
  );
}
