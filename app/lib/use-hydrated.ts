import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and during hydration, true once React runs in the browser. Forms
 * use it to show their no-JavaScript fallbacks (inline notices) only where JavaScript is absent.
 */
export function useHydrated() {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
