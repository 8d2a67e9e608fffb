import { buttonVariants } from "~/components/ui/button-variants";
import { href } from "react-router";
import { InlineResult, LeadField, SentMessages } from "./lead-fields";
import { HOME_SENT, LEAD_ANSWER_FRAGMENT } from "../sent";
import { usePostedLead } from "./use-lead-form";

/** The fields in the form's order (the first refused one takes the focus). */
const FIELDS = ["name", "zipCode", "email"];

/**
 * The home page form (docs/product.md section 2): name, zip code, email. `noValidate`: the messages
 * are docs/product.md section 5's, which the server gives (the browser's own would differ). It posts
 * the page without JavaScript; the page's script posts it in place (lead-form.enhance.ts).
 */
export function HomeContactForm() {
  const { answer, errors, kept, autoFocus, focusAnswer } = usePostedLead(FIELDS);
  return (
    <form
      method="post"
      // The home page is an index route: its action answers at /?index. A form refused without
      // JavaScript comes back as the page with the first refused field `autofocus`ed, which
      // scrolls to it; LEAD_ANSWER_FRAGMENT marks the address without naming an element, since
      // browsers skip autofocus when the address targets one (HTML's autofocus rules).
      action={`${href("/")}?index#${LEAD_ANSWER_FRAGMENT}`}
      noValidate
      data-lead-form=""
      aria-labelledby="contact-heading"
      className="grid gap-4"
    >
      {answer && <InlineResult toast={answer.toast} autoFocus={focusAnswer} />}
      <SentMessages messages={HOME_SENT} />
      <fieldset className="grid gap-4">
        <LeadField
          id="lead-name"
          name="name"
          label="Name"
          autoComplete="name"
          error={errors.name}
          autoFocus={autoFocus("name")}
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
          autoFocus={autoFocus("zipCode")}
          defaultValue={kept?.zipCode}
        />
        <LeadField
          id="lead-email"
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email}
          autoFocus={autoFocus("email")}
          defaultValue={kept?.email}
        />
        <button type="submit" className={buttonVariants({ size: "lg", className: "w-full" })}>
          Schedule Free Consultation
        </button>
      </fieldset>
    </form>
  );
}
