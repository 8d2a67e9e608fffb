import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, href, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { useHydrated } from "~/lib/use-hydrated";
import { homeSchema } from "../schema";
import { DEFAULT_STATE } from "../us-states";
import { HomeAddressFields } from "./form-field";

/**
 * 'Welcome! Let's set up your property': a modal that cannot be dismissed (no close button,
 * Escape and outside clicks do nothing) until the home is saved. It is rendered in the server's
 * HTML, so it works without JavaScript; the page behind it is `inert`.
 */
export function PropertySetupDialog({
  lastResult,
}: {
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "property";
  const [form, fields] = useForm({
    id: "property-setup",
    lastResult,
    constraint: getZodConstraint(homeSchema),
    defaultValue: { state: DEFAULT_STATE },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: homeSchema }),
  });
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/50 p-4">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="property-setup-title"
        aria-describedby="property-setup-description"
        className="grid max-h-[calc(100dvh-2rem)] w-full max-w-lg gap-4 overflow-y-auto rounded-lg border bg-background p-4 shadow-lg sm:p-6"
      >
        <div className="grid gap-2">
          <h2 id="property-setup-title" className="text-lg leading-snug font-semibold">
            Welcome! Let&apos;s set up your property
          </h2>
          <p id="property-setup-description" className="text-sm text-muted-foreground">
            Tell us about the home we will take care of. You can change it later in Profile
            Settings.
          </p>
        </div>
        <Form method="post" {...getFormProps(form)} className="grid gap-4">
          {hydrated && <input type="hidden" name="js" value="1" />}
          <HomeAddressFields
            fields={fields}
            notesLabel="Property Notes (optional)"
            notesPlaceholder="Gate codes, parking instructions, pets..."
          />
          <Button type="submit" name="intent" value="property" disabled={saving}>
            {saving ? "Saving..." : "Save and Continue"}
          </Button>
        </Form>
        <Form method="post" action={href("/account")} className="justify-self-center">
          <Button type="submit" name="intent" value="sign-out" variant="link" size="sm">
            Not you? Sign out
          </Button>
        </Form>
      </div>
    </div>
  );
}
