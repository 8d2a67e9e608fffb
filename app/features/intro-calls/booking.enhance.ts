/*
 * The booking picker of /book-call (ADR 030), on the panel's markup
 * (components/scheduler.tsx): it loads the free times, offers them by day, books in place and
 * moves the view and the focus to the confirmation; or it frames the external widget and logs
 * its events (docs/product.md: they are only logged).
 */
// The site's script comes first: the page loads this file alone.
import "~/components/layout/site.enhance";
import { fieldErrorsOf } from "~/lib/form-answer";
import { postForm, showFieldErrors } from "~/lib/page-forms";
import { showToast } from "~/lib/page-toast";
import { BOOKING_FAILED, type BookingResult, type SchedulerData } from "./result";
import type { href } from "react-router";

/** The free times' address, checked against app/routes.ts without router code in the script. */
const SLOTS_PATH: Parameters<typeof href>[0] = "/book-call/slots";

type Days = Extract<SchedulerData, { mode: "builtin" }>["days"];

/** The widget's postMessage events worth knowing. */
const EVENTS: Record<string, string> = {
  "calendly.profile_page_viewed": "profile viewed",
  "calendly.event_type_viewed": "event type viewed",
  "calendly.date_and_time_selected": "date/time selected",
  "calendly.event_scheduled": "event scheduled",
};

const panel = document.querySelector<HTMLElement>("[data-scheduler]");
const form = panel?.querySelector<HTMLFormElement>("form[data-booking-form]");
if (panel && form) enhance(panel, form);

function enhance(panel: HTMLElement, form: HTMLFormElement) {
  const day = form.querySelector("select")!;
  const times = form.querySelector<HTMLElement>("[data-slots]")!;
  const slot = form.querySelector<HTMLTemplateElement>("template[data-slot]")!;
  const booked = panel.querySelector<HTMLElement>("[data-booked]")!;
  let days: Days = [];

  /** Shows one of the panel's messages (or none); the form is shown only with the times. */
  const show = (state?: "loading" | "failed" | "none" | "form") => {
    for (const message of panel.querySelectorAll<HTMLElement>("[data-state]")) {
      message.hidden = message.dataset.state !== state;
    }
    form.hidden = state !== "form";
    panel.setAttribute("aria-busy", String(state === "loading"));
  };

  const showTimes = () => {
    const chosen = days.find((d) => d.date === day.value) ?? days[0];
    times.replaceChildren(
      ...chosen.slots.map((time) => {
        const item = slot.content.firstElementChild!.cloneNode(true) as HTMLElement;
        item.querySelector("input")!.value = time.startsAt;
        item.querySelector("span")!.textContent = time.label;
        return item;
      }),
    );
  };

  const load = async () => {
    let data: SchedulerData;
    try {
      const response = await fetch(SLOTS_PATH, { headers: { accept: "application/json" } });
      if (!response.ok) throw new Error(String(response.status));
      data = (await response.json()) as SchedulerData;
    } catch {
      show("failed");
      return;
    }
    if (data.mode === "embed") {
      embed(panel, data.url);
      show();
      return;
    }
    days = data.days;
    if (!days.length) {
      show("none");
      return;
    }
    const chosen = day.value;
    day.replaceChildren(...days.map((d) => new Option(d.label, d.date)));
    if (days.some((d) => d.date === chosen)) day.value = chosen;
    showTimes();
    show("form");
  };

  day.addEventListener("change", showTimes);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    panel.querySelector("[data-inline-result]")?.remove();
    const result = await postForm<BookingResult>(form, "Booking...", BOOKING_FAILED);
    showToast(result.toast);
    if (result.outcome === "booked" && result.booking) {
      showFieldErrors(form);
      booked.querySelector("[data-when]")!.textContent = result.booking.when;
      booked.querySelector("[data-email]")!.textContent = result.booking.email;
      // The confirmation replaces the taller form: bring it into view and give it the focus,
      // so the visitor (and a screen reader) lands on it rather than on an emptier card.
      form.hidden = true;
      booked.hidden = false;
      booked.focus({ preventScroll: true });
      booked.scrollIntoView({ block: "center" });
      return;
    }
    // Someone else just took that time: offer what is still free.
    if (result.outcome === "taken") await load();
    showFieldErrors(form, fieldErrorsOf(result.result))?.focus();
  });

  // A page that already answers a booking (a plain post) keeps its confirmation.
  if (!booked.hidden) return;
  show("loading");
  // The times are asked for once the page has painted: the page comes first.
  void afterFirstPaint().then(load);
}

/** After the first frame is painted (or after a second in a background tab, which paints none). */
function afterFirstPaint() {
  return new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 1_000);
  });
}

/** Frames the external widget; CSP frame-src allows its origin. */
function embed(panel: HTMLElement, url: string) {
  const template = panel.querySelector<HTMLTemplateElement>("template[data-embed]")!;
  const frame = template.content.firstElementChild!.cloneNode(true) as HTMLIFrameElement;
  const src = new URL(url);
  // The widget posts its events only to the page it was told it is embedded in.
  src.searchParams.set("embed_domain", location.host);
  src.searchParams.set("embed_type", "Inline");
  frame.src = src.toString();
  template.replaceWith(frame);
  addEventListener("message", (event) => {
    if (event.origin !== src.origin) return;
    const data = event.data as { event?: unknown; payload?: unknown } | null;
    const name = data?.event;
    if (typeof name === "string" && EVENTS[name]) {
      console.info(`Scheduler: ${EVENTS[name]}`, data?.payload);
    }
  });
}
