import { buttonVariants } from "~/components/ui/button-variants";
import { prepareToasts } from "~/lib/lazy-toast";
import type { HomeLeadField } from "../schema";
import { InlineResult, LeadField, SentMessages } from "./lead-fields";
import { HOME_SENT } from "../sent";
import { useLeadForm } from "./use-lead-form";

/**
 * The home page form (SPEC.md section 2): name, zip code, email. `noValidate`: the messages
 * are SPEC.md section 5's, which the server gives (the browser's own would differ).
 */
export function HomeContactForm() {
  const { fetcher, formRef, pending, result, inline, kept } =
    useLeadForm<HomeLeadField>("home-lead");
  const errors = result?.fieldErrors ?? {};
  return (
    <fetcher.Form
      method="post"
      // The page's data is static: nothing to reload after a lead (and nothing to fail offline).
      defaultShouldRevalidate={false}
      noValidate
      ref={formRef}
      onFocus={prepareToasts}
      aria-labelledby="contact-heading"
      className="grid gap-4"
    >
      {inline && result && <InlineResult toast={result.toast} />}
      <SentMessages messages={HOME_SENT} />
      <fieldset disabled={pending} className="grid gap-4">
        <LeadField
          id="lead-name"
          name="name"
          label="Name"
          autoComplete="name"
          error={errors.name}
          defaultValue={kept?.name}
        />
        <LeadField
          id="lead-zip"
          name="zipCode"
          label="Zip Code"
          inputMode="numeric"
          maxLength={5}
          autoComplete="postal-code"
          error={errors.zipCode}
          defaultValue={kept?.zipCode}
        />
        <LeadField
          id="lead-email"
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email}
          defaultValue={kept?.email}
        />
        <button type="submit" className={buttonVariants({ size: "lg", className: "w-full" })}>
          {pending ? "Submitting..." : "Schedule Free Consultation"}
        </button>
      </fieldset>
    </fetcher.Form>
  );
}
