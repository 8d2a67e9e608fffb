import { useEffect } from "react";
import { useLocation } from "react-router";

function syncExpanded(details: HTMLDetailsElement) {
  details
    .querySelector(":scope > summary[role=button]")
    ?.setAttribute("aria-expanded", String(details.open));
}

/**
 * The public pages' disclosures (the phone menu, the FAQ) are <details> elements, so they open
 * and close without JavaScript too. Their <summary> has role="button", so assistive technology
 * meets a button whatever a browser maps a summary to. aria-expanded is not in the static HTML,
 * where it would be wrong as soon as someone toggled the element without JavaScript: once React
 * runs, this keeps it in step with each element's open state.
 *
 * One listener for the whole page, in the layout, rather than a handler on each element: the
 * public pages' JavaScript budget is tight (docs/decisions/008) and the FAQ's route chunk then
 * carries no code for it. It runs again after each navigation, for the new page's elements.
 */
export function useExpandedSummaries() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.querySelectorAll("details").forEach(syncExpanded);
    const onToggle = (event: Event) => {
      if (event.target instanceof HTMLDetailsElement) syncExpanded(event.target);
    };
    // toggle does not bubble, but every ancestor sees it while it is captured.
    document.addEventListener("toggle", onToggle, true);
    return () => document.removeEventListener("toggle", onToggle, true);
  }, [pathname]);
}

/**
 * The spec's buttons that lead somewhere ("a Book a Call button to /book-call", "Let's Talk",
 * "Get Started") are links with role="button": they work without JavaScript, and they are
 * announced as the buttons they look like. A button answers Space as well as Enter; a link
 * only Enter, so Space is added here, once for the whole page.
 */
export function useSpaceOnLinkButtons() {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target;
      if (event.key !== " " || !(target instanceof HTMLAnchorElement)) return;
      if (target.getAttribute("role") !== "button") return;
      event.preventDefault();
      target.click();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}
