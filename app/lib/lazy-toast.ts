/*
 * Toasts for pages that keep sonner out of their first load (the public pages, see
 * components/layout/deferred-toaster.tsx): the Toaster is mounted on request and sonner is
 * imported when a toast is actually shown.
 */

export type ToastMessage = {
  kind: "success" | "info" | "error";
  title: string;
  description: string;
};

let requested = false;
const listeners = new Set<() => void>();

/** Asks the root to mount the Toaster (once); safe to call any number of times. */
export function requestToaster() {
  if (requested) return;
  requested = true;
  for (const listener of listeners) listener();
}

export function subscribeToToaster(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function isToasterRequested() {
  return requested;
}

/** Warms up toasts before they are needed (e.g. when a form gets focus). */
export function prepareToasts() {
  requestToaster();
  void import("sonner");
}

export async function showToast(message: ToastMessage) {
  requestToaster();
  const { toast } = await import("sonner");
  toast[message.kind](message.title, { description: message.description });
}
