import { lazy, Suspense, useEffect, useSyncExternalStore } from "react";
import { useMatches } from "react-router";
import { isToasterRequested, requestToaster, subscribeToToaster } from "~/lib/lazy-toast";

/*
 * The toast outlet, loaded after hydration instead of with the first page. The public pages
 * have a strict JavaScript budget (ADR 008: at most 115 KB gzipped, and React with the router
 * already take about 110 KB), and sonner is ~10 KB of it. So:
 *   - on pages whose route says `handle = { toaster: "on-demand" }` (the marketing pages), the
 *     Toaster loads only when something asks for it (~/lib/lazy-toast: a form's first focus
 *     or its first result);
 *   - on every other page it loads right after hydration.
 * sonner replays toasts created before its Toaster subscribed, so a `toast()` called early
 * still shows.
 */

const Toaster = lazy(() => import("~/components/ui/sonner").then((m) => ({ default: m.Toaster })));

export type ToasterHandle = { toaster?: "on-demand" };

export function DeferredToaster() {
  const onDemand = useMatches().some(
    (match) => (match.handle as ToasterHandle | undefined)?.toaster === "on-demand",
  );
  const mounted = useSyncExternalStore(subscribeToToaster, isToasterRequested, () => false);
  useEffect(() => {
    if (!onDemand) requestToaster();
  }, [onDemand]);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
