import { useNavigation } from "react-router";
import type { FormAnswer } from "~/lib/form-answer";

/*
 * What the staff membership page's forms share: the outcome next to each form and its busy
 * state; each refused field is marked by ~/components/ui/marked-field.
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
