import { useNavigation } from "react-router";

/* What the staff membership page's forms share: the outcome next to each form, and its busy state. */

export type Outcome = { ok: boolean; intent: string; message: string } | null;

export const twelveHour = (time: string) => {
  const [h, m] = time.split(":").map(Number);
  return `${((h + 11) % 12) + 1}:${String(m).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`;
};

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
