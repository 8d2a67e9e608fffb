import type { Request, Response } from "express";
import { business } from "~/lib/business.server";

/** A request answered before any route saw it: a body too large, not a form, malformed. */
export type Refusal = {
  status: 400 | 413 | 415;
  /** For the log line. */
  reason: string;
  /** For the person or the client. */
  message: string;
};

/** A refusal: its status, the reason for the log line, the message for the person or client. */
export function refusal(status: Refusal["status"], reason: string, message: string): Refusal {
  return { status, reason, message };
}

const TITLES: Record<Refusal["status"], string> = {
  400: "Bad request",
  413: "Request too large",
  415: "Unsupported form",
};

/**
 * Answers a refusal as JSON to scripts and API clients and as a small page to a browser's form
 * post. A body left unread is not read on: the connection closes once the answer is out (after
 * a short grace, discarding what still arrives, so the client gets to read the answer).
 */
export function refuse(req: Request, res: Response, refusal: Refusal) {
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  const wantsJson =
    req.path.startsWith("/api/") ||
    req.path.endsWith(".data") ||
    (req.accepts(["html", "json"]) === "json" && !req.accepts("html"));
  res.status(refusal.status);
  res.setHeader("Cache-Control", "no-store");
  if (!req.complete) closeWithoutReading(req, res);
  if (wantsJson) {
    res.json({ code: `HTTP_${refusal.status}`, message: refusal.message });
    return;
  }
  res.type("html").send(page(TITLES[refusal.status], refusal.message));
}

/**
 * For an answer sent while the request's body is still arriving: the connection closes after
 * it, and what still comes is discarded for a short grace (so the client, still sending, gets
 * to read the answer instead of a reset) rather than read into anything.
 */
export function closeWithoutReading(req: Request, res: Response) {
  if (!res.headersSent) res.setHeader("Connection", "close");
  const socket = req.socket;
  // Node destroys a `Connection: close` socket once the answer is written; with the client's
  // bytes still unread that is a reset, and a reset makes the client drop the answer it has
  // not read yet. Instead: half-close (the answer, then end of stream), discard what arrives
  // for a moment, then destroy (a lingering close, as nginx does).
  socket.destroySoon = function lingeringClose(this: typeof socket) {
    this.end();
    this.resume();
    setTimeout(() => this.destroy(), 2_000).unref();
  };
  res.on("finish", () => req.resume());
}

function page(title: string, message: string) {
  const name = business().name;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} | ${escapeHtml(name)}</title></head>
<body>
<main>
<h1>${title}</h1>
<p>${escapeHtml(message)}</p>
<p><a href="/">Back to the home page</a></p>
</main>
</body>
</html>
`;
}

function escapeHtml(text: string) {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}
