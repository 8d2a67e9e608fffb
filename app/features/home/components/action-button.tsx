import { Button } from "~/components/ui/button";
import { useHomeForm } from "./use-home-form";

/** A one-button form of the home record ('Remove', 'Mark done', 'Draw the plan'). */
export function ActionButton({
  action,
  back,
  intent,
  formKey,
  id,
  label,
  pendingLabel,
  variant = "outline",
}: {
  action: string;
  back: string;
  intent: string;
  formKey: string;
  id?: string;
  label: string;
  pendingLabel: string;
  variant?: "outline" | "default" | "destructive";
}) {
  const { fetcher, answer, pending } = useHomeForm();
  return (
    <fetcher.Form
      method="post"
      action={action}
      className="inline-flex flex-wrap items-center gap-2"
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="key" value={formKey} />
      <input type="hidden" name="back" value={back} />
      {id && <input type="hidden" name="id" value={id} />}
      <Button type="submit" size="sm" variant={variant} disabled={pending}>
        {pending ? pendingLabel : label}
      </Button>
      {answer && !answer.ok && (
        <span role="alert" className="text-sm text-destructive">
          {answer.message}
        </span>
      )}
    </fetcher.Form>
  );
}
