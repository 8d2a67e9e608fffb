import { href, redirect } from "react-router";
import { listPageQuery } from "./list-pages";
import { REQUEST_NOTICES, type RequestActionResult, type RequestNoticeCode } from "./notices";

/**
 * A form posted by the browser itself (no JavaScript) navigates; a script's fetch does not.
 * Browsers without Sec-Fetch-* headers are told apart by what they accept.
 */
export function isDocumentRequest(request: Request) {
  const mode = request.headers.get("sec-fetch-mode");
  if (mode) return mode === "navigate";
  return (request.headers.get("accept") ?? "").includes("text/html");
}

/**
 * The answer to a request action: JSON for scripts, or for a plain form post a redirect back to
 * the dashboard, which shows the notice, on the lists' pages the form was posted from (a form
 * carries them in its action's query: ?npage=2).
 */
export function respond(
  request: Request,
  notice: RequestNoticeCode,
  extra: Omit<RequestActionResult, "ok" | "notice"> & { status?: number } = {},
) {
  const { status, ...data } = extra;
  const ok = REQUEST_NOTICES[notice].kind === "success";
  if (isDocumentRequest(request)) {
    const pages = listPageQuery(new URL(request.url).searchParams);
    return redirect(`${href("/dashboard")}?${pages ? `${pages}&` : ""}notice=${notice}`, {
      headers: { "Cache-Control": "no-store" },
    });
  }
  const body: RequestActionResult = { ok, notice, ...data };
  return Response.json(body, {
    status: status ?? (ok ? 200 : 400),
    headers: { "Cache-Control": "no-store" },
  });
}
