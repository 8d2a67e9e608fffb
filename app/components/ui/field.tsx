import type { ReactNode } from "react";
import { cn } from "~/lib/utils";

/** What a field gives its control: its id and the ARIA ties to its description and error. */
export type FieldControlProps = {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
};

export const FIELD_LABEL_CLASS = "text-sm leading-none font-medium";

/**
 * The one form field of the product: a label, the control, a description and the error
 * message, tied to the control by aria-describedby and aria-invalid. Plain markup, no script,
 * so it serves the public pages rendered without React in the browser (ADR 030) as well as the
 * signed-in pages' Conform forms (components of the accounts feature bind it to Conform's
 * field metadata).
 *
 * `keepErrorPlace`: the error's paragraph is rendered (hidden) even without an error, for a
 * page's script that shows the messages it receives (lib/page-forms.ts finds it by
 * `<id>-error`).
 */
export function Field({
  id,
  label,
  description,
  error,
  errorId = `${id}-error`,
  keepErrorPlace,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  description?: ReactNode;
  error?: string;
  errorId?: string;
  keepErrorPlace?: boolean;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const descriptionId = description ? `${id}-description` : undefined;
  const describedBy =
    [descriptionId, error ? errorId : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("grid gap-2", className)}>
      <label htmlFor={id} className={FIELD_LABEL_CLASS}>
        {label}
      </label>
      {children({
        id,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
      })}
      {description && (
        <p id={descriptionId} className="text-xs text-muted-foreground">
          {description}
        </p>
      )}
      {(error || keepErrorPlace) && (
        <p id={errorId} hidden={!error} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
