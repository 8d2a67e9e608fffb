import type { ToastMessage } from "./toast-message";

/*
 * Toasts on the public pages, without React (ADR 030): a copy of the page's toast template
 * (components/layout/page-toaster.tsx) added to its list. Like the signed-in pages' sonner
 * toasts: top centre just below the header, newest first, at most three, each closing after five
 * seconds (not while the pointer rests on it) or with its Close button.
 */

const VISIBLE = 3;
const DURATION = 5_000;
/** The gap between the page's header and the toasts. */
const GAP = 8;

export function showToast(message: ToastMessage) {
  const list = document.querySelector<HTMLElement>("[data-toaster]");
  const template = document.querySelector<HTMLTemplateElement>("template[data-toast-template]");
  const item = template?.content.firstElementChild?.cloneNode(true);
  if (!list || !(item instanceof HTMLElement)) return;
  const header = document.querySelector("header")?.getBoundingClientRect().bottom ?? 0;
  list.style.top = `${Math.max(0, Math.ceil(header)) + GAP}px`;
  item.dataset.kind = message.kind;
  item.querySelector("[data-title]")!.textContent = message.title;
  item.querySelector("[data-description]")!.textContent = message.description;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const close = () => {
    clearTimeout(timer);
    item.remove();
  };
  const start = () => {
    clearTimeout(timer);
    timer = setTimeout(close, DURATION);
  };
  item.querySelector("button")?.addEventListener("click", close);
  item.addEventListener("pointerenter", () => clearTimeout(timer));
  item.addEventListener("pointerleave", start);
  list.prepend(item);
  while (list.children.length > VISIBLE) list.lastElementChild?.remove();
  start();
}
