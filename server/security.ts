import crypto from "node:crypto";
import { env } from "~/lib/env.server";

/** Sent with every answer, by Express (server/app.ts) and by the fast path (server/fast-path.ts). */
export const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["X-Frame-Options", "DENY"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()"],
];

/** Strict-Transport-Security, sent when the request came over https (req.secure). */
export const HSTS = "max-age=63072000; includeSubDomains";

/** The scheduler's origin when it is embedded (SCHEDULER_EMBED_URL), for frame-src. */
export function frameSources() {
  const url = env().schedulerEmbedUrl;
  return url ? [new URL(url).origin] : [];
}

export type CspOptions = {
  nonce?: string;
  scriptHashes?: string[];
  frameSources?: string[];
  dev?: boolean;
};

/** The Content-Security-Policy for one response. */
export function contentSecurityPolicy(options: CspOptions) {
  const scriptSrc = ["'self'"];
  if (options.nonce) scriptSrc.push(`'nonce-${options.nonce}'`);
  for (const hash of options.scriptHashes ?? []) scriptSrc.push(`'${hash}'`);
  if (options.dev) scriptSrc.push("'unsafe-inline'");
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": scriptSrc,
    // Radix and React set a few style attributes in server markup.
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "connect-src": options.dev ? ["'self'", "ws:", "wss:"] : ["'self'"],
    "frame-src": options.frameSources?.length ? options.frameSources : ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
    "base-uri": ["'self'"],
    "object-src": ["'none'"],
    "manifest-src": ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/gi;

/** sha256 hashes of the executable inline scripts of an HTML document (for prerendered pages). */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attributes = match[1];
    const type = /\btype=["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== "module" && type !== "text/javascript") continue; // JSON-LD etc.
    const body = match[2];
    hashes.add(`sha256-${crypto.createHash("sha256").update(body, "utf8").digest("base64")}`);
  }
  return [...hashes];
}
