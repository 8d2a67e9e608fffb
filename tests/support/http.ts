/**
 * A minimal HTTP client for tests that talk to a server the way a browser without JavaScript
 * (or an attacker with curl) would: form posts, a cookie jar, no automatic redirects.
 */
import crypto from "node:crypto";

/** A made-up client address (X-Forwarded-For), so per-address rate limits count one caller. */
export function fakeIp() {
  const b = crypto.randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2] || 1}`;
}

export type FormBody = Record<string, string | string[]> | FormData;

export class HttpClient {
  readonly cookies = new Map<string, string>();
  ip = fakeIp();
  /** Sent with every request (e.g. X-Forwarded-Host, as a load balancer would add). */
  headers: Record<string, string> = {};

  /**
   * @param base where requests go (one server process, or a load balancer)
   * @param origin the Origin a browser on the public site would send
   */
  constructor(
    public base: string,
    public origin = base,
  ) {}

  cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /** Takes the Set-Cookie headers of a response into the jar (expired ones removed). */
  remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some(
        (a) => /max-age=0/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()),
      );
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(
    path: string,
    init: Omit<RequestInit, "headers"> & { headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = {
      "x-forwarded-for": this.ip,
      ...this.headers,
      ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
      ...init.headers,
    };
    if (init.method && init.method !== "GET" && init.method !== "HEAD" && !("origin" in headers))
      headers.origin = this.origin;
    const response = await fetch(new URL(path, this.base), {
      redirect: "manual",
      ...init,
      headers,
    });
    this.remember(response);
    return response;
  }

  get(path: string, headers: Record<string, string> = {}) {
    return this.request(path, { headers });
  }

  /** A form post (urlencoded, or multipart when given FormData), like a browser without JS. */
  postForm(path: string, body: FormBody, headers: Record<string, string> = {}) {
    if (body instanceof FormData) return this.request(path, { method: "POST", body, headers });
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(body)) {
      for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
    }
    return this.request(path, {
      method: "POST",
      body: params.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    });
  }

  postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
    return this.request(path, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", ...headers },
    });
  }
}
