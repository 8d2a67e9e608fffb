import { useEffect, useRef } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { isRequestNoticeCode, REQUEST_NOTICES } from "../notices";
import { useHydrated } from "~/lib/use-hydrated";
import { showRequestNotice } from "../client-actions";

/**
 * One-time notices carried in the URL: ?denied=employee (sent here from /employee) and
 * ?notice=code (the outcome of a form posted without JavaScript). With JavaScript they become
 * toasts and leave the URL; without it they show as a status line.
 */
export function PageNotices() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const shown = useRef<string | null>(null);
  const denied = params.get("denied") === "employee";
  const notice = params.get("notice");
  const key = `${denied}|${notice}`;

  useEffect(() => {
    if ((!denied && !notice) || shown.current === key) return;
    shown.current = key;
    if (denied) {
      toast.error("Access Denied", { description: "You don't have employee access." });
    }
    if (isRequestNoticeCode(notice)) showRequestNotice(notice);
    const next = new URLSearchParams(params);
    next.delete("denied");
    next.delete("notice");
    const search = next.toString();
    void navigate(
      { search: search ? `?${search}` : "" },
      { replace: true, preventScrollReset: true },
    );
  }, [denied, notice, key, params, navigate]);

  if (hydrated) return null;
  const lines = [
    denied ? "Access Denied: You don't have employee access." : null,
    isRequestNoticeCode(notice) ? REQUEST_NOTICES[notice].title : null,
  ].filter(Boolean);
  if (lines.length === 0) return null;
  return (
    <div role="status" className="rounded-md border bg-background px-4 py-3 text-sm">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}
