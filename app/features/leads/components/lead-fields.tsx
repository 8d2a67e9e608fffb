import type { ReactNode } from "react";
import { Field } from "~/components/ui/field";
import { inputClassName } from "~/components/ui/input-class-name";
import type { ToastMessage } from "~/lib/toast-message";
import { SENT_FRAGMENTS } from "../sent";

/*
 * The lead forms' fields: the product's Field with a plain named input (or textarea). Each
 * field's message has its place beside it from the start, hidden while there is none: the
 * server fills it in for a form posted without JavaScript, the page's script
 * (lead-form.enhance.ts) for one it posted, finding the field by `data-field`.
 */

type FieldProps = {
  id: string;
  name: string;
  label: ReactNode;
  error?: string;
  defaultValue?: string;
  multiline?: boolean;
} & Omit<React.ComponentProps<"input">, "id" | "name" | "defaultValue"> &
  Pick<React.ComponentProps<"textarea">, "rows">;

export function LeadField({
  id,
  name,
  label,
  error,
  defaultValue,
  multiline,
  rows,
  className,
  ...input
}: FieldProps) {
  return (
    <Field id={id} label={label} error={error} keepErrorPlace className={className}>
      {(control) =>
        multiline ? (
          <textarea
            {...control}
            name={name}
            data-field={name}
            defaultValue={defaultValue}
            rows={rows}
            placeholder={input.placeholder}
            autoFocus={input.autoFocus}
            className={`${inputClassName} min-h-24 resize-y`}
          />
        ) : (
          <input
            {...control}
            {...input}
            name={name}
            data-field={name}
            defaultValue={defaultValue}
            className={`${inputClassName} h-10`}
          />
        )
      }
    </Field>
  );
}

/** The result of a post without JavaScript, where a toast would have been. */
export function InlineResult({ toast, autoFocus }: { toast: ToastMessage; autoFocus?: boolean }) {
  const error = toast.kind === "error";
  return (
    <div
      role={error ? "alert" : "status"}
      data-inline-result=""
      // Focused on load when no field was refused (a limit, a failure), so it is read out.
      tabIndex={autoFocus ? -1 : undefined}
      autoFocus={autoFocus}
      className={`rounded-md border p-3 text-sm ${error ? "border-destructive text-destructive" : "border-primary text-foreground"}`}
    >
      <p className="font-semibold">{toast.title}</p>
      <p>{toast.description}</p>
    </div>
  );
}

/**
 * The messages of a lead taken without JavaScript (ADR 025), in the prerendered page: each
 * hidden until the address names it (`/#lead-sent`), then shown by CSS `:target`.
 */
export function SentMessages({ messages }: { messages: Partial<Record<string, ToastMessage>> }) {
  return (
    <>
      {Object.entries(messages).map(([status, toast]) => (
        <div
          key={status}
          id={SENT_FRAGMENTS[status as keyof typeof SENT_FRAGMENTS]}
          role="status"
          className="hidden scroll-mt-24 rounded-md border border-primary p-3 text-sm text-foreground target:block"
        >
          <p className="font-semibold">{toast!.title}</p>
          <p>{toast!.description}</p>
        </div>
      ))}
    </>
  );
}
