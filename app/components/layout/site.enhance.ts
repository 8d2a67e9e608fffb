/*
 * The script of every public page (ADR 030): the pages run no React, and everything on them
 * works as plain HTML; this adds what a person gains from a few lines of script.
 *
 * - The disclosures (the phone menu, the FAQ) are <details> elements, so they open and close
 *   without JavaScript. Their <summary> has role="button"; aria-expanded is not in the HTML,
 *   where it would be wrong as soon as someone toggled the element without JavaScript, so it is
 *   set here and kept in step with each element's open state.
 * - The phone menu closes when a link in the bar is followed (a same-page anchor changes no
 *   page, so nothing else would close it) and on Escape, which gives the focus back to the
 *   toggle.
 * - The spec's buttons that lead somewhere ("Book a Call", "Let's Talk", "Get Started") are
 *   links with role="button": announced as the buttons they look like, and, like a button, they
 *   answer Space as well as Enter.
 * - The not-found page logs the missing path to the console (docs/product.md section 2).
 *
 * A page with more to do loads its own script instead, which imports this one first
 * (lead-form.enhance.ts, booking.enhance.ts). The `data-enhanced` mark on <html> says the
 * page's script has run: the modules it imports are evaluated in one go, before anything else
 * on the page can run.
 */

function syncExpanded(details: HTMLDetailsElement) {
  details
    .querySelector(":scope > summary[role=button]")
    ?.setAttribute("aria-expanded", String(details.open));
}

document.querySelectorAll("details").forEach(syncExpanded);
// toggle does not bubble, but the document sees it while it is captured.
document.addEventListener(
  "toggle",
  (event) => {
    if (event.target instanceof HTMLDetailsElement) syncExpanded(event.target);
  },
  true,
);

const menu = document.querySelector<HTMLDetailsElement>("[data-site-menu]");
menu?.closest("nav")?.addEventListener("click", (event) => {
  if (event.target instanceof Element && event.target.closest("a")) menu.open = false;
});

document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (event.key === "Escape" && menu?.open && target instanceof Node && menu.contains(target)) {
    menu.open = false;
    menu.querySelector("summary")?.focus();
  }
  if (
    event.key === " " &&
    target instanceof HTMLAnchorElement &&
    target.getAttribute("role") === "button"
  ) {
    event.preventDefault();
    target.click();
  }
});

if (document.querySelector("[data-missing-path]")) {
  console.error("404 Error: User attempted to access non-existent route:", location.pathname);
}

document.documentElement.setAttribute("data-enhanced", "");
