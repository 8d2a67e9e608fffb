import { Icon } from "~/components/icons";

/**
 * The public pages' toast outlet, as markup: they run no React in the browser (ADR 030), so
 * their enhancement scripts show a toast by cloning the template into the list
 * (lib/page-toast.ts). The region is in the page from the start, so a screen reader hears each
 * toast added to it. It looks and sits as the signed-in pages' toasts do (components/ui/sonner):
 * top centre, just below the fixed header, newest first.
 */
export function PageToaster() {
  return (
    <section aria-label="Notifications" aria-live="polite" aria-relevant="additions text">
      <ol
        data-toaster=""
        className="pointer-events-none fixed inset-x-0 top-[72px] z-50 mx-auto flex w-full max-w-[388px] flex-col gap-2 px-4"
      />
      <template data-toast-template="">
        <li
          data-toast=""
          className="pointer-events-auto relative animate-[toast-in_200ms_ease-out] rounded-lg border bg-popover p-4 pr-10 text-sm text-popover-foreground shadow-lg"
        >
          <p data-title="" className="font-semibold" />
          <p data-description="" />
          <button
            type="button"
            aria-label="Close toast"
            className="absolute top-2 right-2 flex size-7 items-center justify-center rounded-md opacity-70 hover:opacity-100"
          >
            <Icon name="x" className="size-4" />
          </button>
        </li>
      </template>
    </section>
  );
}
