import type { ReactNode } from "react";
import { inputClassName } from "~/components/ui/input-class-name";
import type { ToastMessage } from "~/lib/toast-message";
import { SENT_FRAGMENTS } from "../sent";

/*
 * Plain inputs styled like components/ui (Input, Label, Textarea). Each field's message has its
 * place beside it from the start, hidden while there is none: the server fills it in for a form
 * posted without JavaScript, the page's script (lead-form.enhance.ts) for one it posted.
 */

export const LABEL_CLASS = "text-sm leading-none font-medium";

type FieldProps = {
  id: string;
  name: string;
  label: ReactNode;
  error?: string;
  defaultValue?: string;
  multiline?: boolean;
} & Omit<React.ComponentProps<"input">, "id" | "name" | "defaultValue"> &
  Pick<React.ComponentProps<"textarea">, "rows">;

/** A labelled input (or textarea) with its error beside it, tied by aria-describedby. */
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
  const errorId = `${id}-error`;
  const shared = {
    id,
    name,
    defaultValue,
    "data-field": name,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
  };
  return (
    <div className={`grid gap-2 ${className ?? ""}`}>
      <label htmlFor={id} className={LABEL_CLASS}>
        {label}
      </label>
      {multiline ? (
        <textarea
          {...shared}
          rows={rows}
          placeholder={input.placeholder}
          className={`${inputClassName} min-h-24 resize-y`}
        />
      ) : (
        <input {...shared} {...input} className={`${inputClassName} h-10`} />
      )}
      <p id={errorId} hidden={!error} className="text-sm text-destructive">
        {error}
      </p>
    </div>
  );
}

/** The result of a post without JavaScript, where a toast would have been. */
export function InlineResult({ toast }: { toast: ToastMessage }) {
  const error = toast.kind === "error";
  return (
    <div
      role={error ? "alert" : "status"}
      data-inline-result=""
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
