import { afterAll, beforeAll } from "vitest";
import { db } from "~/db/client.server";
import { resetAuthForTests } from "~/lib/auth.server";
import { resetEnvForTests } from "~/lib/env.server";
import { createUser, type NewUser } from "../../server/seed/factories";
import { useTestDatabase } from "./test-database";

/*
 * Calls the product's auth endpoints the way a browser would: real Requests through the route
 * modules (our rate limit and validation in front of Better Auth), cookies carried by hand.
 */

export const ORIGIN = "http://localhost:3000";

export function configureAuthEnvironment() {
  Object.assign(process.env, {
    PUBLIC_URL: ORIGIN,
    AUTH_SECRET: "integration-secret-integration-secret-0123",
    DATA_DIR: "./.tmp/integration-auth",
    SMTP_URL: "",
  });
  resetEnvForTests();
  resetAuthForTests();
}

/** The password of every account createTestAccount makes. */
export const TEST_PASSWORD = "Sturdy-Pass-2026!";

/** For a test file (or a describe block): the auth settings and a database of its own. */
export function withAuthTestDatabase(options?: Parameters<typeof useTestDatabase>[0]) {
  let drop = async () => {};
  beforeAll(async () => {
    configureAuthEnvironment();
    drop = (await useTestDatabase(options)).drop;
  });
  afterAll(() => drop());
}

let accountCounter = 0;
/** A verified account with an e-mail no other test uses (`<prefix>-N-<time>@example.com`). */
export async function createTestAccount(
  prefix: string,
  fields: Partial<Omit<NewUser, "email" | "password">> = {},
) {
  accountCounter += 1;
  return createUser(db(), {
    email: `${prefix}-${accountCounter}-${Date.now()}@example.com`,
    password: TEST_PASSWORD,
    firstName: "Casey",
    lastName: "Member",
    ...fields,
  });
}

let addressCounter = 0;
/** A fresh client address, so per-address limits count one test at a time. */
export function nextClientAddress() {
  addressCounter += 1;
  return `10.20.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

export type Call = { path: string; body?: unknown; cookie?: string; clientAddress?: string };

export async function callAuthApi(
  action: (args: never) => Promise<Response> | Response,
  { path, body, cookie, clientAddress }: Call,
): Promise<Response> {
  const headers = new Headers({ "content-type": "application/json", origin: ORIGIN });
  if (cookie) headers.set("cookie", cookie);
  const request = new Request(`${ORIGIN}/api/auth${path}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body ?? {}),
  });
  return action({
    request,
    params: {},
    context: { clientAddress: clientAddress ?? nextClientAddress(), nonce: "", requestId: "" },
  } as never);
}

/** The Cookie header a browser would send back after this response (name=value pairs). */
export function cookieFrom(response: Response, previous = ""): string {
  const jar = new Map<string, string>();
  for (const pair of previous.split(/;\s*/).filter(Boolean)) {
    const [name, ...rest] = pair.split("=");
    jar.set(name, rest.join("="));
  }
  for (const line of response.headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(";");
    const [name, ...rest] = pair.trim().split("=");
    const expired = attributes.some((a) => /max-age=0/i.test(a.trim()));
    if (expired) jar.delete(name);
    else jar.set(name, rest.join("="));
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}
