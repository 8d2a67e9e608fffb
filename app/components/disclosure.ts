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
