/*
 * The lead forms' script (ADR 030): the home and city pages' forms are posted in place, and the
 * answer is shown as the signed-in pages show theirs: a toast with docs/product.md's words, each
 * refused field's message beside it and the focus on the first, the fields emptied once the
 * lead is taken. Without JavaScript the same forms post the page (ADR 025).
 */
// The site's script comes first: the page loads this file alone.
import "~/components/layout/site.enhance";
import { fieldErrorsOf } from "~/lib/form-answer";
import { postForm, showFieldErrors } from "~/lib/page-forms";
import { showToast } from "~/lib/page-toast";
import { REQUEST_FAILED, type LeadResult } from "./result";

for (const form of document.querySelectorAll<HTMLFormElement>("form[data-lead-form]")) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    // An answer shown inline by an earlier post without the script is out of date now.
    form.querySelector("[data-inline-result]")?.remove();
    const result = await postForm<LeadResult>(form, "Submitting...", REQUEST_FAILED);
    showToast(result.toast);
    const refused = showFieldErrors(form, fieldErrorsOf(result.result));
    if (result.ok) {
      for (const field of form.querySelectorAll<HTMLInputElement>("[data-field]")) field.value = "";
    } else refused?.focus();
  });
}
