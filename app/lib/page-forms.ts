/*
 * The public pages' forms, posted by their enhancement scripts instead of a page load
 * (ADR 030). The markup is the server's: every field that can be refused carries
 * `data-field="<name>"` and an id, and a hidden `<p id="<id>-error">` waits beside it for its
 * message. Without JavaScript the same forms post the page and the server renders the messages.
 */

/**
 * The request header of a public page's own script. The server then treats the post as the
 * page's own (a refusal is 200 with the messages, never a redirect) and answers the action's
 * result as JSON (server/app.ts, entry.server.tsx).
 */
export const PAGE_SCRIPT_HEADER = "X-Page-Script";

/**
 * Posts the form to its action and returns the result, or `failed` when no usable answer came
 * (offline, a server error). While it waits the fields are disabled and the submit button
 * says `pendingText`.
 */
export async function postForm<T>(form: HTMLFormElement, pendingText: string, failed: T) {
  // Read before the fieldset is disabled: disabled fields are not part of a form's data.
  const body = new URLSearchParams(new FormData(form) as unknown as Record<string, string>);
  const fieldset = form.querySelector("fieldset");
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
  const idle = button?.textContent ?? "";
  if (fieldset) fieldset.disabled = true;
  if (button) button.textContent = pendingText;
  try {
    const response = await fetch(form.action, {
      method: "POST",
      body,
      headers: { Accept: "application/json", [PAGE_SCRIPT_HEADER]: "1" },
    });
    return response.ok ? ((await response.json()) as T) : failed;
  } catch {
    return failed;
  } finally {
    if (fieldset) fieldset.disabled = false;
    if (button) button.textContent = idle;
  }
}

/**
 * Shows each field's message beside it (and clears the others); returns the first field that
 * was refused, for the focus.
 */
export function showFieldErrors(
  form: HTMLFormElement,
  errors: Partial<Record<string, string>> = {},
) {
  let first: HTMLElement | undefined;
  for (const field of form.querySelectorAll<HTMLElement>("[data-field]")) {
    const message = errors[field.dataset.field!];
    const note = document.getElementById(`${field.id}-error`);
    if (note) {
      note.textContent = message ?? "";
      note.hidden = !message;
    }
    const group = field.matches("fieldset");
    if (message) {
      // A group is described by its message; its choices are not each invalid.
      if (!group) field.setAttribute("aria-invalid", "true");
      if (note) field.setAttribute("aria-describedby", note.id);
      first ??= field;
    } else {
      field.removeAttribute("aria-invalid");
      field.removeAttribute("aria-describedby");
    }
  }
  // A group (the booking's times) gives the focus to its first choice.
  return first?.matches("fieldset") ? first.querySelector<HTMLElement>("input") : first;
}
