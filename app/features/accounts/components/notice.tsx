import { useEffect } from "react";
import { toast } from "sonner";
import { useHydrated } from "~/lib/use-hydrated";
import { cn } from "~/lib/utils";
import type { Notice } from "../schema";

export type ShownNotice = Notice & { id: string };

/** Shows a notice as a toast: success in green, failures in the destructive style. */
export function showNotice(notice: Notice, id?: string) {
  const show = notice.kind === "success" ? toast.success : toast.error;
  show(notice.title, { description: notice.description, id });
}

/** Toasts each new notice a server answer carries (once per answer, by its id). */
export function useNoticeToast(notice: ShownNotice | null | undefined) {
  const hydrated = useHydrated();
  const id = notice?.id;
  useEffect(() => {
    if (hydrated && notice) showNotice(notice, notice.id);
    // The id changes with every answer; the notice object itself changes on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated, id]);
}

/**
 * Without JavaScript there are no toasts: the same notice is shown in the page instead, where
 * a screen reader announces it.
 */
export function NoticeFallback({
  notice,
  className,
}: {
  notice: Notice | null | undefined;
  className?: string;
}) {
  const hydrated = useHydrated();
  if (hydrated || !notice) return null;
  return (
    <div
      role={notice.kind === "error" ? "alert" : "status"}
      className={cn(
        "rounded-md border p-3 text-sm",
        notice.kind === "error"
          ? "border-destructive/40 bg-destructive/5 text-destructive"
          : "border-primary/30 bg-secondary text-secondary-foreground",
        className,
      )}
    >
      <p className="font-semibold">{notice.title}</p>
      {notice.description && <p>{notice.description}</p>}
    </div>
  );
}
