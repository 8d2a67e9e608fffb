import { href, redirect } from "react-router";
import { answerMode, answerStatus, type AnswerContext } from "~/lib/form-answer.server";
import { listPageQuery } from "./list-pages";
import { REQUEST_NOTICES, type RequestActionResult, type RequestNoticeCode } from "./notices";

/**
 * The answer to a request action: JSON for the page's script and API clients, or for a plain
 * form post a redirect back to the dashboard, which shows the notice, on the lists' pages the
 * form was posted from (a form carries them in its action's query: ?npage=2).
 */
export function respond(
  request: Request,
  context: AnswerContext,
  notice: RequestNoticeCode,
  extra: Pick<RequestActionResult, "requestId" | "result"> & { status?: number } = {},
) {
  const { status, ...data } = extra;
  if (answerMode(request, context) === "page") {
    const pages = listPageQuery(new URL(request.url).searchParams);
    return redirect(`${href("/dashboard")}?${pages ? `${pages}&` : ""}notice=${notice}`, {
      headers: { "Cache-Control": "no-store" },
    });
  }
  const ok = REQUEST_NOTICES[notice].kind === "success";
  const body: RequestActionResult = { ok, message: REQUEST_NOTICES[notice].title, notice, ...data };
  // A resource route's answer: a Response, which the tests and API clients read as it is.
  return Response.json(body, {
    status: answerStatus(status ?? (ok ? 200 : 400), context),
    headers: { "Cache-Control": "no-store" },
  });
}
