import { buttonVariants } from "~/components/ui/button-variants";
import { InlineResult, LeadField, SentMessages } from "./lead-fields";
import { CITY_SENT } from "../sent";
import { usePostedLead } from "./use-lead-form";

/** The fields in the form's order (the first refused one takes the focus). */
const FIELDS = ["name", "phone", "email", "message"];

/**
 * The city-page form (docs/product.md section 2): Full Name, Phone Number, Email Address and an
 * optional message. The browser checks required fields and the e-mail format itself. It posts
 * the page (`action`, the city page's path) without JavaScript; the page's script posts it in
 * place (lead-form.enhance.ts).
 */
export function CityContactForm({ city, action }: { city: string; action: string }) {
  const { answer, errors, kept, autoFocus, focusAnswer } = usePostedLead(FIELDS);
  return (
    <form
      method="post"
      action={action}
      data-lead-form=""
      aria-label={`Free consultation request for ${city}`}
      className="grid gap-4"
    >
      {answer && <InlineResult toast={answer.toast} autoFocus={focusAnswer} />}
      <SentMessages messages={CITY_SENT} />
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <LeadField
          id="city-name"
          name="name"
          label="Full Name"
          required
          autoComplete="name"
          error={errors.name}
          autoFocus={autoFocus("name")}
          defaultValue={kept?.name}
        />
        <LeadField
          id="city-phone"
          name="phone"
          label="Phone Number"
          type="tel"
          required
          autoComplete="tel"
          error={errors.phone}
          autoFocus={autoFocus("phone")}
          defaultValue={kept?.phone}
        />
        <LeadField
          id="city-email"
          name="email"
          label="Email Address"
          type="email"
          required
          autoComplete="email"
          error={errors.email}
          autoFocus={autoFocus("email")}
          defaultValue={kept?.email}
          className="sm:col-span-2"
        />
        <LeadField
          id="city-message"
          name="message"
          label={
            <>
              Message <span className="font-normal text-muted-foreground">(optional)</span>
            </>
          }
          multiline
          rows={4}
          placeholder="Tell us about your home type and the maintenance tasks you need help with..."
          error={errors.message}
          autoFocus={autoFocus("message")}
          defaultValue={kept?.message}
          className="sm:col-span-2"
        />
        <button
          type="submit"
          className={buttonVariants({ size: "lg", className: "w-full sm:col-span-2" })}
        >
          Get My Free Consultation
        </button>
      </fieldset>
    </form>
  );
}
