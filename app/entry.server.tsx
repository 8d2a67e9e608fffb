import type { AppLoadContext, EntryContext } from "react-router";
import { isRouteErrorResponse } from "react-router";
import type { HandleErrorFunction } from "react-router";
import { logger } from "./lib/logger.server";
import { renderDocument } from "./lib/render-document.server";

export const streamTimeout = 5_000;

/**
 * A loader or action that failed (the database gone for a moment, a bug): the request answers
 * the error page with a 500, and its log line carries the request id the response's
 * X-Request-Id header shows, so one failure can be found. A request the client gave up on is
 * not an error.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  // A thrown Response (a 404, a 401) is an answer, not a failure.
  if (error instanceof Response || (isRouteErrorResponse(error) && error.status < 500)) return;
  const requestId = (context as AppLoadContext | undefined)?.requestId;
  logger.error(
    {
      requestId,
      method: request.method,
      path: new URL(request.url).pathname,
      err: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    },
    "request failed",
  );
};

/*
 * A document is rendered whole, then sent in one piece with its length (ADR 111). No page
 * streams: a page load waits for its data (the HTML must be complete without JavaScript, ADR
 * 009), and an in-app navigation asks for data (`*.data`), which does not come through here.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  // A public page's script posted a form (ADR 030): it reads the action's result, not a page.
  const actionData = routerContext.staticHandlerContext.actionData;
  if (loadContext?.scriptRequest && actionData) {
    const [result] = Object.values(actionData);
    return Response.json(result, { status: responseStatusCode, headers: responseHeaders });
  }
  // The public pages, rendered once when the server starts, have no request and so no nonce:
  // the server allows their inline scripts by hash instead (server/public-pages.ts).
  const nonce = loadContext?.nonce as string | undefined;
  const html = await renderDocument(routerContext, request.url, nonce);
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set("Content-Length", String(html.byteLength));
  return new Response(html, { headers: responseHeaders, status: responseStatusCode });
}
