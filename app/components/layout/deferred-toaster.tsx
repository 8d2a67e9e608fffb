import { lazy, Suspense, useEffect, useState } from "react";

/*
 * The toast outlet of the pages React runs in the browser (the signed-in pages), loaded right
 * after hydration instead of with the first page: sonner replays toasts created before its
 * Toaster subscribed, so a `toast()` called early still shows. The public pages run no React
 * and have their own toasts (page-toaster.tsx, ADR 030).
 */

const Toaster = lazy(() => import("~/components/ui/sonner").then((m) => ({ default: m.Toaster })));

export function DeferredToaster() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
