import { useEffect } from "react";

/** The widget's postMessage events worth knowing (SPEC.md: they are only logged). */
const EVENTS: Record<string, string> = {
  "calendly.profile_page_viewed": "profile viewed",
  "calendly.event_type_viewed": "event type viewed",
  "calendly.date_and_time_selected": "date/time selected",
  "calendly.event_scheduled": "event scheduled",
};

/** The external scheduling widget (SCHEDULER_EMBED_URL), framed; CSP frame-src allows it. */
export function EmbeddedScheduler({ url }: { url: string }) {
  const src = new URL(url);
  if (typeof window !== "undefined") {
    // The widget posts its events only to the page it was told it is embedded in.
    src.searchParams.set("embed_domain", window.location.host);
    src.searchParams.set("embed_type", "Inline");
  }
  useEffect(() => {
    const origin = new URL(url).origin;
    function onMessage(event: MessageEvent) {
      if (event.origin !== origin) return;
      const name = (event.data as { event?: unknown } | null)?.event;
      if (typeof name === "string" && EVENTS[name]) {
        console.info(`Scheduler: ${EVENTS[name]}`, (event.data as { payload?: unknown }).payload);
      }
    }
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [url]);
  return (
    <iframe
      src={src.toString()}
      title="Schedule your intro call"
      className="h-[680px] w-full rounded-xl border bg-background"
    />
  );
}
