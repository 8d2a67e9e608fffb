import type { IncomingMessage } from "node:http";
import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from "express";
import { createRequestHandler as createReactRouterHandler, type ServerBuild } from "react-router";
import { writeReadableStreamToWritable } from "@react-router/node";
import type { AppLoadContext } from "react-router";
import {
  PROFILE_PHOTO_MAX_BYTES,
  PROFILE_PHOTO_TOO_LARGE,
} from "~/features/employee/profile-photo";
import {
  ONE_PHOTO_BODY_LIMIT,
  PHOTO_TOO_LARGE,
  PHOTOS_TOO_LARGE_IN_ALL,
  UPLOAD_BODY_LIMIT,
} from "~/features/photos/limits";
import { logger } from "~/lib/logger.server";
import { closeWithoutReading, refusal, refuse, type Refusal } from "./refusal";

/*
 * React Router's Express adapter, with the request body under a limit (docs/decisions/026).
 * A body is never read past its route's limit: a declared Content-Length over it is refused
 * before a byte is read, and a body without one (chunked) or with a false one is counted while
 * it streams and refused the moment it goes past. Forms and JSON (every route but the photo
 * uploads) are read here, at most 64 KB, and checked before the route sees them: a body that
 * is not a form (or, for /api/auth, JSON) is 415, one that cannot be parsed is 400. The photo
 * uploads stream on to their route, which parses them as they arrive (ADR 009).
 */

/** Forms and JSON: the biggest legitimate one (a request's description) is a few KB. */
export const FORM_BODY_LIMIT = 64 * 1024;

const TOO_LARGE = refusal(413, "request body too large", "That request is too large to accept.");

/**
 * Routes whose multipart bodies stream to the photo pipeline instead of being buffered, each
 * with the most it can take (ADR 043): a request's form with its 20 photos, one photo, the
 * profile photo. A declared Content-Length over it is refused before a byte is read, a body
 * without one stops being read at it.
 */
const PHOTOS_TOO_LARGE = refusal(413, "photos over the post's total", PHOTOS_TOO_LARGE_IN_ALL);

export const UPLOAD_ROUTES: { pattern: RegExp; limit: number; tooLarge: Refusal }[] = [
  {
    pattern: /^\/dashboard\/requests(\.data)?$/,
    limit: UPLOAD_BODY_LIMIT,
    tooLarge: PHOTOS_TOO_LARGE,
  },
  {
    pattern: /^\/dashboard\/requests\/[^/]+(\.data)?$/,
    limit: UPLOAD_BODY_LIMIT,
    tooLarge: PHOTOS_TOO_LARGE,
  },
  {
    pattern: /^\/dashboard\/requests\/[^/]+\/photos(\.data)?$/,
    limit: ONE_PHOTO_BODY_LIMIT,
    tooLarge: refusal(413, "photo upload too large", PHOTO_TOO_LARGE),
  },
  // 'Add photo' and 'Add part' on 'Today': one photo each (an after photo, a receipt).
  {
    pattern: /^\/employee\/today(\.data)?$/,
    limit: ONE_PHOTO_BODY_LIMIT,
    tooLarge: refusal(413, "photo upload too large", PHOTO_TOO_LARGE),
  },
  // 'Label photo' of the home's record (ADR 087): one photo.
  {
    pattern: /^\/homes\/[^/]+\/label(\.data)?$/,
    limit: ONE_PHOTO_BODY_LIMIT,
    tooLarge: refusal(413, "photo upload too large", PHOTO_TOO_LARGE),
  },
  {
    pattern: /^\/employee\/profile-photo(\.data)?$/,
    limit: PROFILE_PHOTO_MAX_BYTES + 64 * 1024,
    tooLarge: refusal(413, "profile photo too large", PROFILE_PHOTO_TOO_LARGE),
  },
];

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

type Options = {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode?: string;
  getLoadContext(req: ExpressRequest, res: ExpressResponse): AppLoadContext;
};

export function createRequestHandler({ build, mode, getLoadContext }: Options) {
  const handleRequest = createReactRouterHandler(build, mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const body = await readBody(req);
      if ("refusal" in body) {
        logger.warn(
          { requestId: res.locals.requestId, path: req.path, status: body.refusal.status },
          body.refusal.reason,
        );
        refuse(req, res, body.refusal);
        return;
      }
      const controller = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) controller.abort();
      });
      const request = new Request(requestUrl(req), {
        method: req.method,
        headers: requestHeaders(req),
        signal: controller.signal,
        ...(body.stream ? { body: body.stream, duplex: "half" } : {}),
      } as RequestInit);
      const response = await handleRequest(request, getLoadContext(req, res));
      if (body.overflowed()) {
        await response.body?.cancel();
        refuse(req, res, body.tooLarge);
        return;
      }
      // A route that answered without reading its whole upload: the rest is not worth reading.
      if (body.unread()) closeWithoutReading(req, res);
      await send(res, response);
    } catch (error) {
      next(error);
    }
  };
}

type Body =
  | { refusal: Refusal }
  | {
      stream?: ReadableStream<Uint8Array> | Uint8Array;
      /** The streamed body went past its limit (the route saw its stream fail). */
      overflowed(): boolean;
      /** The answer then. */
      tooLarge: Refusal;
      /** Bytes of the body were left unread when the answer went out. */
      unread(): boolean;
    };

async function readBody(req: ExpressRequest): Promise<Body> {
  const none = { overflowed: () => false, unread: () => false, tooLarge: TOO_LARGE };
  if (req.method === "GET" || req.method === "HEAD") return none;
  const type = (req.get("content-type") ?? "").toLowerCase();
  const declared = declaredLength(req);
  if (declared === "invalid") return { refusal: BAD_LENGTH };
  const multipart = type.startsWith("multipart/form-data");
  const boundary = /;\s*boundary=/i.test(type);

  const upload = multipart && boundary && UPLOAD_ROUTES.find((r) => r.pattern.test(req.path));
  if (upload) {
    if (declared !== undefined && declared > upload.limit) return { refusal: upload.tooLarge };
    return streamWithinLimit(req, upload.limit, upload.tooLarge);
  }

  if (declared !== undefined && declared > FORM_BODY_LIMIT) return { refusal: TOO_LARGE };
  const bytes = await readAll(req, FORM_BODY_LIMIT);
  if (bytes === "too large") return { refusal: TOO_LARGE };
  if (bytes === "aborted") return { refusal: ABORTED };
  const api = req.path.startsWith("/api/");
  // An empty body without a type is an empty form (a button that posts nothing): the route
  // reads it as one instead of failing on a missing Content-Type.
  if (bytes.length === 0 && !type) {
    if (!api) req.headers["content-type"] = "application/x-www-form-urlencoded";
    return none;
  }
  if (multipart && !boundary) return { refusal: NO_BOUNDARY };

  const json = type.startsWith("application/json");
  // Stripe's webhook posts JSON, passed on byte for byte (its signature is on the raw body).
  const takesJson = api || req.path === "/webhooks/stripe";
  if (!(FORM_TYPES.some((form) => type.startsWith(form)) || (takesJson && json))) {
    return { refusal: api ? NOT_FORM_OR_JSON : NOT_A_FORM };
  }
  if (!(await parses(bytes, type, json))) return { refusal: MALFORMED };
  return { ...none, stream: bytes.length ? bytes : undefined };
}

/** Whether the body is what its Content-Type says (a form or JSON that can be read). */
async function parses(bytes: Uint8Array, type: string, json: boolean) {
  try {
    if (json) JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    else await new Response(bytes as BodyInit, { headers: { "content-type": type } }).formData();
    return true;
  } catch {
    return false;
  }
}

function declaredLength(req: IncomingMessage): number | undefined | "invalid" {
  const header = req.headers["content-length"];
  if (header === undefined) return undefined;
  if (!/^\d{1,15}$/.test(header)) return "invalid";
  return Number(header);
}

/** The whole body, unless it goes past `limit` (reading stops there) or the client goes away. */
function readAll(req: IncomingMessage, limit: number) {
  return new Promise<Uint8Array | "too large" | "aborted">((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: Uint8Array | "too large" | "aborted") => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("close", onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        done("too large");
      } else chunks.push(chunk);
    };
    const onEnd = () => done(Buffer.concat(chunks));
    const onError = () => done("aborted");
    const onClose = () => {
      if (!req.complete) done("aborted");
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("close", onClose);
  });
}

/**
 * The upload as a web stream that fails the moment more than `limit` bytes arrive, and stops
 * reading the request there. Its own stream rather than React Router's adapter: a failed or
 * abandoned stream must leave the connection to the refusal (answer, then a lingering close),
 * where the adapter's would destroy the socket and the client would read a reset instead of
 * the 413.
 */
function streamWithinLimit(req: IncomingMessage, limit: number, tooLarge: Refusal): Body {
  let seen = 0;
  let overflowed = false;
  let settled = false;
  const stop = () => {
    settled = true;
    req.pause();
    req.off("data", onData);
  };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const onData = (chunk: Buffer) => {
    if (settled) return;
    seen += chunk.length;
    if (seen > limit) {
      overflowed = true;
      stop();
      controller.error(new Error("request body too large"));
      return;
    }
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 1) <= 0) req.pause();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      req.on("data", onData);
      req.on("end", () => {
        if (settled) return;
        settled = true;
        controller.close();
      });
      const broken = () => {
        if (settled || req.complete) return;
        stop();
        controller.error(new Error("the request ended before its body did"));
      };
      req.on("close", broken);
      req.on("error", broken);
    },
    pull() {
      if (!settled) req.resume();
    },
    // The route stopped reading (an answer without the rest of the upload): leave it unread.
    cancel() {
      stop();
    },
  });
  return {
    stream,
    overflowed: () => overflowed,
    unread: () => !req.complete,
    tooLarge,
  };
}

const BAD_LENGTH = refusal(
  400,
  "invalid Content-Length",
  "The request's Content-Length is not a number.",
);
const NO_BOUNDARY = refusal(
  400,
  "multipart body without a boundary",
  "The form could not be read: its multipart boundary is missing.",
);
const NOT_A_FORM = refusal(
  415,
  "body is not a form",
  "Send the form as application/x-www-form-urlencoded or multipart/form-data.",
);
const NOT_FORM_OR_JSON = refusal(415, "body is not a form or JSON", "Send JSON or a form.");
const MALFORMED = refusal(
  400,
  "malformed body",
  "The form could not be read: the request body is malformed.",
);
const ABORTED = refusal(400, "body ended early", "The request ended before its body did.");

function requestUrl(req: ExpressRequest) {
  const [, forwardedPort] = req.app.enabled("trust proxy")
    ? (req.get("X-Forwarded-Host")?.split(":") ?? [])
    : [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = [forwardedPort, hostPort]
    .map((value) => Number.parseInt(value ?? "", 10))
    .find((value) => Number.isSafeInteger(value));
  const hostname = req.hostname?.split(/[\\/?#@]/)[0] || "localhost";
  return `${req.protocol}://${hostname}${port ? `:${port}` : ""}${req.originalUrl}`;
}

function requestHeaders(req: IncomingMessage) {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(key, item);
    else headers.set(key, value);
  }
  return headers;
}

async function send(res: ExpressResponse, response: Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (!response.body) {
    res.end();
    return;
  }
  // A document comes rendered whole with its length (app/entry.server.tsx): one write. (Files
  // served by resource routes, photos among them, keep streaming.)
  if (
    response.headers.has("content-length") &&
    response.headers.get("content-type")?.startsWith("text/html")
  ) {
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (!(res.destroyed || res.writableEnded)) throw error;
  }
}
