import { useNavigation } from "react-router";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { fieldErrorsOf, type FormAnswer } from "~/lib/form-answer";

/*
 * What the staff membership page's forms share: the outcome next to each form, the fields it
 * refused, and its busy state.
 */

export type Outcome = FormAnswer<{ intent: string; message: string }> | null;

export function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

/** One form's outcome, next to the form it answers. */
export function OutcomeLine({ outcome, intent }: { outcome: Outcome; intent: string }) {
  if (!outcome || outcome.intent !== intent) return null;
  return (
    <p
      role={outcome.ok ? "status" : "alert"}
      className={outcome.ok ? "text-sm text-primary" : "text-sm font-medium text-destructive"}
    >
      {outcome.message}
    </p>
  );
}

/**
 * One field of the form `intent` as its answer left it (ADR 093): when the action refused the
 * field, the control's ARIA ties (aria-invalid, aria-describedby) and its message below it.
 */
export function marked(outcome: Outcome, intent: string, name: string, id: string) {
  const message =
    outcome && !outcome.ok && outcome.intent === intent
      ? fieldErrorsOf(outcome.result)[name]
      : undefined;
  if (!message) return { props: {}, message: null };
  return {
    props: { "aria-invalid": true, "aria-describedby": `${id}-error` },
    message: (
      <p id={`${id}-error`} className="text-sm text-destructive">
        {message}
      </p>
    ),
  };
}

/** A labelled input, marked as `mark` (from `marked`) says. */
export function MarkedInput({
  mark,
  id,
  label,
  ...input
}: {
  mark: ReturnType<typeof marked>;
  id: string;
  label: string;
} & React.ComponentProps<typeof Input>) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} {...input} {...mark.props} />
      {mark.message}
    </div>
  );
}
