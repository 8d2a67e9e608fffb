import type { AppLoadContext, EntryContext } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import type { HandleErrorFunction } from "react-router";
import { logger } from "./lib/logger.server";
import { NonceProvider } from "./lib/nonce";

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
 * A document is rendered whole, then sent in one piece with its length. No page streams: a
 * page load waits for its data (the HTML must be complete without JavaScript, ADR 009), and an
 * in-app navigation asks for data (`*.data`), which does not come through here. Handing React's
 * output to the socket as it is written would cost a write per 4 KB chunk through a PassThrough,
 * a web stream and Express's response (the CPU profile of /dashboard under load showed those
 * writes ahead of our own code); collecting it costs a copy. React writes into a plain
 * collector, not a Writable stream: it only needs write() (which never asks it to wait), end()
 * and on().
 */
export default function handleRequest(
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

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const chunks: Uint8Array[] = [];
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);
    const body = {
      write(chunk: Uint8Array | string) {
        chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
        return true;
      },
      end() {
        clearTimeout(timeoutId);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        const html = Buffer.concat(chunks);
        responseHeaders.set("Content-Length", String(html.byteLength));
        resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
      },
      on() {
        return body;
      },
    };

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          pipe(body as unknown as NodeJS.WritableStream);
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
