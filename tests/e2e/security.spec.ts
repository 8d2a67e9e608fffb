import http from "node:http";
import { HttpClient } from "../support/http";
import {
  createDatabase,
  freePort,
  startServer,
  TEST_AUTH_SECRET,
  type ServerProcess,
} from "../support/processes";
import { startLocalS3 } from "../support/s3-server";
import { startSink, type CapturedMail } from "../support/sink";
import { totp } from "../support/totp";
import { appRoutes, fillPattern, type AppRoute } from "../support/route-table";
import { BASE_URL } from "../support/ports";
import { buildWorld, changedPeople, snapshot, type Actor, type World } from "../support/world";
import { createUser } from "../../server/seed/factories";
import { e2eDb, expect, PASSWORD, sink, test, uniqueEmail } from "./fixtures";

/*
 * Web security over every route of app/routes.ts: headers, cookies, cross-origin requests,
 * redirect parameters, host-header poisoning of e-mailed links.
 */

test.describe.configure({ mode: "serial" });

let world: World;
let routes: AppRoute[];

test.beforeAll(async () => {
  routes = await appRoutes();
  world = await buildWorld(e2eDb(), BASE_URL);
});

/** A concrete URL for a route, with the parameters filled from A's objects. */
function urlFor(route: AppRoute) {
  const params: Record<string, string> = {
    requestId: world.A.requestIds[0],
    appointmentId: world.A.appointmentId,
    visitId: world.A.appointmentId,
    photoId: world.A.photoIds[0],
    partId: world.A.pendingPartId,
    variant: "full",
    userId: world.A.id,
    customerId: world.A.id,
    membershipId: world.A.membershipId,
    homeId: world.A.homeId,
    // An appliance nobody has: a 404 carries the headers too.
    applianceId: "00000000-0000-4000-8000-000000000000",
    file: "profile.webp",
    // A lead nobody has (a 404 carries the headers too) and one of the reports' tables.
    leadId: "00000000-0000-4000-8000-000000000000",
    table: "members-by-month",
    "*": route.pattern.startsWith("/api/auth") ? "get-session" : "no-such-page",
  };
  return fillPattern(route.pattern, params);
}

const REQUIRED_HEADERS: Record<string, RegExp> = {
  "content-security-policy":
    /default-src 'self'.*frame-ancestors 'none'.*form-action 'self'.*base-uri 'self'.*object-src 'none'/,
  "x-content-type-options": /^nosniff$/,
  "referrer-policy": /^strict-origin-when-cross-origin$/,
  "x-frame-options": /^DENY$/,
  "cross-origin-opener-policy": /^same-origin$/,
  "permissions-policy": /camera=\(\).*microphone=\(\).*geolocation=\(\)/,
};

function headerProblems(response: Response, where: string) {
  const problems: string[] = [];
  for (const [name, pattern] of Object.entries(REQUIRED_HEADERS)) {
    const value = response.headers.get(name);
    if (!value || !pattern.test(value)) problems.push(`${where}: ${name} = ${value}`);
  }
  const csp = response.headers.get("content-security-policy") ?? "";
  const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
  if (scriptSrc.includes("'unsafe-inline'") || scriptSrc.includes("'unsafe-eval'"))
    problems.push(`${where}: script-src allows ${scriptSrc}`);
  if (response.headers.get("x-powered-by")) problems.push(`${where}: X-Powered-By is sent`);
  return problems;
}

test("every route answers with the security headers, whoever asks and whatever the status", async () => {
  const problems: string[] = [];
  let checked = 0;
  const pages = routes.filter((r) => !r.layout);
  for (const route of pages) {
    for (const actor of ["visitor", "customerA", "employee"] as Actor[]) {
      const client = world.clients[actor];
      const url = urlFor(route);
      const response = await client.get(url);
      await response.arrayBuffer();
      problems.push(...headerProblems(response, `${actor} GET ${url} (${response.status})`));
      checked++;
      if (route.hasPage && route.hasLoader) {
        const dataUrl = url === "/" ? "/_root.data" : `${url.replace(/\/$/, "")}.data`;
        const data = await client.get(dataUrl);
        await data.arrayBuffer();
        problems.push(...headerProblems(data, `${actor} GET ${dataUrl} (${data.status})`));
        checked++;
      }
    }
  }
  // Beyond the routes: static assets, the health check, a refused cross-origin post.
  // A script of a page React runs (the public pages have no script file, ADR 030).
  const signIn = await (await world.clients.visitor.get("/auth")).text();
  const asset = /(\/assets\/[^"'\s)]+\.js)/.exec(signIn)?.[1];
  expect(asset).toBeTruthy();
  for (const url of [asset!, "/favicon.ico", "/healthz"]) {
    const response = await world.clients.visitor.get(url);
    await response.arrayBuffer();
    problems.push(...headerProblems(response, `GET ${url} (${response.status})`));
    checked++;
  }
  const refused = await world.clients.customerA.postForm(
    "/account",
    { intent: "update-profile" },
    { origin: "https://evil.example" },
  );
  problems.push(...headerProblems(refused, `cross-origin POST /account (${refused.status})`));
  expect(problems).toEqual([]);
  console.log(`security headers: ${checked} responses checked over ${pages.length} routes`);
});

test("HSTS is sent over https (behind a proxy that says so) and never over plain http", async () => {
  const plain = await world.clients.visitor.get("/auth");
  expect(plain.headers.get("strict-transport-security")).toBeNull();
  const secure = await world.clients.visitor.get("/auth", { "x-forwarded-proto": "https" });
  expect(secure.headers.get("strict-transport-security")).toMatch(/max-age=\d{8,}/);
});

test("pages with someone's data are never stored by shared caches", async () => {
  const problems: string[] = [];
  for (const route of routes.filter((r) => !r.layout && r.hasLoader)) {
    for (const actor of ["customerA", "employee"] as Actor[]) {
      const url = urlFor(route);
      const response = await world.clients[actor].get(url);
      const body = await response.text();
      const personal = [world.markers.A, world.markers.B, world.employee.email].some((m) =>
        body.includes(m),
      );
      const cacheControl = response.headers.get("cache-control") ?? "";
      if (personal && !/no-store|private/.test(cacheControl))
        problems.push(`${actor} GET ${url} (${response.status}): Cache-Control "${cacheControl}"`);
    }
  }
  expect(problems).toEqual([]);
});

test("the session cookie is HttpOnly, SameSite=Lax, scoped to the site, and not readable by scripts", async () => {
  const client = new HttpClient(BASE_URL);
  const response = await client.postJson("/api/auth/sign-in/email", {
    email: world.A.email,
    password: "World-Pass-2026!",
  });
  expect(response.status).toBe(200);
  const cookies = response.headers.getSetCookie();
  const session = cookies.find((c) => /^better-auth\.session_token=/.test(c));
  expect(session, cookies.join("\n")).toBeTruthy();
  expect(session).toMatch(/;\s*HttpOnly/i);
  expect(session).toMatch(/;\s*SameSite=Lax/i);
  expect(session).toMatch(/;\s*Path=\//i);
  expect(session).not.toMatch(/;\s*Domain=/i);
  expect(session).toMatch(/;\s*Max-Age=\d+/i);
  for (const cookie of cookies) expect(cookie).toMatch(/;\s*HttpOnly/i);
});

/** Sends a request with full control of the Host header (fetch does not allow setting it). */
function rawRequest(
  url: string,
  options: { method: string; headers: Record<string, string>; body?: string },
) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const request = http.request(url, { method: options.method, headers: options.headers });
      request.on("response", (response) => {
        let body = "";
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      });
      request.on("error", reject);
      request.end(options.body);
    },
  );
}

test("a reset e-mail asked for with a hostile Host or X-Forwarded-Host still links to PUBLIC_URL", async () => {
  const hostile: Record<string, string>[] = [
    { host: "evil.example", origin: BASE_URL },
    { host: "evil.example", origin: "http://evil.example" },
    { "x-forwarded-host": "evil.example", origin: BASE_URL },
    { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https", origin: BASE_URL },
  ];
  let linked = 0;
  for (const [i, headers] of hostile.entries()) {
    const email = world.A.email;
    const before = (await sink.mails(email)).length;
    const response = await rawRequest(`${BASE_URL}/api/auth/request-password-reset`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-forwarded-for": `10.99.0.${i + 1}`,
        host: new URL(BASE_URL).host,
        ...headers,
      },
      body: JSON.stringify({ email, redirectTo: "/auth" }),
    });
    // Either refused outright, or the e-mail's link goes to the real site.
    if (response.status === 200) {
      await expect.poll(async () => (await sink.mails(email)).length).toBeGreaterThan(before);
      const mail = (await sink.mails(email)).at(-1)!;
      const links = mail.text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) expect(link.startsWith(`${BASE_URL}/`), link).toBe(true);
      expect(mail.raw).not.toContain("evil.example");
      linked++;
    } else {
      expect([400, 403]).toContain(response.status);
    }
  }
  // The poisoned requests that look like our own pages' were answered, with safe links.
  expect(linked).toBeGreaterThanOrEqual(3);
});

test("redirect parameters cannot send anyone to another site", async () => {
  const hostileTargets = [
    "https://evil.example/steal",
    "//evil.example/steal",
    "/\\evil.example/steal",
    "https:evil.example",
    "javascript:alert(1)",
    `${BASE_URL}.evil.example/`,
    `${BASE_URL}@evil.example/`,
  ];
  const offSite = (location: string | null) => {
    if (!location) return false;
    if (/^javascript:/i.test(location)) return true;
    const target = new URL(location, BASE_URL);
    return target.origin !== new URL(BASE_URL).origin;
  };
  const problems: string[] = [];
  const client = new HttpClient(BASE_URL);
  for (const target of hostileTargets) {
    // Sign-in with a callback URL (a fresh account each time: 5 attempts per e-mail).
    const account = await createUser(e2eDb(), {
      email: uniqueEmail("redirect"),
      password: PASSWORD,
      firstName: "Red",
      lastName: "Irect",
    });
    const signIn = await new HttpClient(BASE_URL).postJson("/api/auth/sign-in/email", {
      email: account.email,
      password: PASSWORD,
      callbackURL: target,
    });
    const signInBody = await signIn.text();
    if (signIn.status === 200 && /"url":"(?!\/)/.test(signInBody) && signInBody.includes("evil"))
      problems.push(`sign-in callbackURL ${target}: ${signInBody}`);
    if (offSite(signIn.headers.get("location")))
      problems.push(`sign-in callbackURL ${target} → ${signIn.headers.get("location")}`);

    // The links of e-mailed flows: verification and reset, with hostile callback URLs.
    for (const path of [
      `/api/auth/verify-email?token=invalid&callbackURL=${encodeURIComponent(target)}`,
      `/api/auth/reset-password/invalid-token?callbackURL=${encodeURIComponent(target)}`,
      `/auth?redirectTo=${encodeURIComponent(target)}`,
      `/auth?callbackURL=${encodeURIComponent(target)}&mode=sign-in`,
    ]) {
      const response = await client.get(path);
      await response.arrayBuffer();
      if (offSite(response.headers.get("location")))
        problems.push(`GET ${path} → ${response.headers.get("location")}`);
    }
  }
  // A reset asked for with a hostile destination: refused, or its link still comes back here.
  const hostileReset = await new HttpClient(BASE_URL).postJson("/api/auth/request-password-reset", {
    email: world.B.email,
    redirectTo: "https://evil.example/steal",
  });
  expect([200, 400, 403]).toContain(hostileReset.status);
  if (hostileReset.status !== 200) {
    await new HttpClient(BASE_URL).postJson("/api/auth/request-password-reset", {
      email: world.B.email,
      redirectTo: "/auth",
    });
  }
  // A real reset link with a hostile callback: the token is good, the destination is ours.
  const mail = await sink.waitForMail(world.B.email, /reset/i);
  const link = sink.linkIn(mail, "/reset-password/");
  const tokenUrl = new URL(link);
  tokenUrl.searchParams.set("callbackURL", "https://evil.example/steal");
  const followed = await client.get(tokenUrl.pathname + tokenUrl.search);
  await followed.arrayBuffer();
  if (offSite(followed.headers.get("location")))
    problems.push(`reset link with hostile callback → ${followed.headers.get("location")}`);
  expect(new URL(link).searchParams.get("callbackURL")).toBe("/auth");
  expect(problems).toEqual([]);
});

test("cross-origin posts to every action and auth endpoint are refused and change nothing", async () => {
  const before = await snapshot(e2eDb(), world);
  const actions = routes.filter((r) => r.hasAction);
  const authEndpoints = [
    "sign-in/email",
    "sign-up/email",
    "sign-out",
    "request-password-reset",
    "reset-password",
    "change-password",
    "change-email",
    "update-user",
    "delete-user",
    "revoke-sessions",
    "send-verification-email",
    "two-factor/enable",
    "two-factor/disable",
    "two-factor/verify-totp",
    "two-factor/generate-backup-codes",
  ].map((endpoint) => `/api/auth/${endpoint}`);
  const hostileSources: Record<string, string>[] = [
    { origin: "https://evil.example" },
    { origin: "null" },
    { origin: `${BASE_URL}.evil.example` },
    { referer: "https://evil.example/page" },
    {}, // neither Origin nor Referer
  ];
  const problems: string[] = [];
  let attempts = 0;
  const targets = [
    ...actions.flatMap((route) => {
      const url = urlFor(route);
      return route.index ? [`${url}?index`] : [url];
    }),
    ...authEndpoints,
  ];
  for (const url of targets) {
    for (const source of hostileSources) {
      for (const actor of ["customerA", "employee"] as Actor[]) {
        const client = world.clients[actor];
        const headers: Record<string, string> = {
          cookie: client.cookieHeader(),
          "x-forwarded-for": client.ip,
          ...source,
        };
        // Bodies that would do something: a profile change, a new password, a sign-up...
        const form = new URLSearchParams({
          intent: "update-profile",
          firstName: "Hacked",
          lastName: "Hacked",
          title: "Hacked",
          email: world.A.email,
          password: "Hacked-Pass-2026!",
          newPassword: "Hacked-Pass-2026!",
          currentPassword: "World-Pass-2026!",
          name: "Hacked",
        });
        const asJson = url.startsWith("/api/auth");
        const response = await fetch(new URL(url, BASE_URL), {
          method: "POST",
          redirect: "manual",
          headers: {
            ...headers,
            "content-type": asJson ? "application/json" : "application/x-www-form-urlencoded",
          },
          body: asJson ? JSON.stringify(Object.fromEntries(form)) : form.toString(),
        });
        const text = await response.text();
        attempts++;
        // Webhooks come from no page: they are refused by their missing signature rather than
        // by the origin check: Twilio's with 403 (ADR 044), Stripe's with 400 as Stripe expects
        // (issue 27, ADR 054).
        const webhook = url.startsWith("/webhooks/");
        const refused = url.startsWith("/webhooks/stripe") ? 400 : 403;
        if (response.status !== refused || (!webhook && text !== "Cross-origin request refused"))
          problems.push(`${actor} POST ${url} ${JSON.stringify(source)} → ${response.status}`);
      }
    }
  }
  expect(problems).toEqual([]);
  expect(changedPeople(before, await snapshot(e2eDb(), world))).toEqual([]);
  // The control: the same kind of post from the site itself does change the profile.
  const own = await world.clients.customerA.postForm("/account", {
    intent: "update-profile",
    firstName: "Changed",
    lastName: world.markers.A,
  });
  expect(own.status).toBe(200);
  expect(changedPeople(before, await snapshot(e2eDb(), world))).toEqual(["A"]);
  console.log(`cross-origin: ${attempts} posts to ${targets.length} endpoints, all refused`);
});

test("no password, token, TOTP secret or configured secret in any log line, and secure cookies under https", async () => {
  test.setTimeout(120_000);
  const database = await createDatabase();
  const s3 = await startLocalS3("handyman-logs");
  const smtpPort = await freePort();
  const mailbox = await startSink({ smtpPort, httpPort: await freePort() });
  const dbPassword = "db-pass-ZQ93kd";
  const databaseUrl = new URL(database.url);
  databaseUrl.password = dbPassword; // trust authentication: accepted, and must never be logged
  const publicUrl = "https://handyman.test";
  let server: ServerProcess | undefined;
  try {
    server = await startServer({
      DATABASE_URL: databaseUrl.toString(),
      AUTH_SECRET: TEST_AUTH_SECRET,
      PUBLIC_URL: publicUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      LEAD_WEBHOOK_URL: "https://hooks.example/leads?key=hook-key-MV82nd",
      // Everything the server could say: debug, not just the production default of info.
      LOG_LEVEL: "debug",
      OUTBOX_POLL_MS: "200",
    });
    const secrets = new Map<string, string>([
      ["AUTH_SECRET", TEST_AUTH_SECRET],
      ["database password", dbPassword],
      ["S3 secret key", s3.secretAccessKey.length >= 8 ? s3.secretAccessKey : "unused"],
      ["webhook key", "hook-key-MV82nd"],
    ]);
    const browser = new HttpClient(server.origin, publicUrl);
    const secure = { "x-forwarded-proto": "https" };
    const email = uniqueEmail("logs");
    const firstPassword = "First-Pass-2026!";
    const secondPassword = "Second-Pass-2026!";
    const wrongPassword = "Wrong-Pass-2026!";
    secrets.set("first password", firstPassword);
    secrets.set("second password", secondPassword);
    secrets.set("wrong password", wrongPassword);
    const remember = (response: Response) => {
      for (const cookie of response.headers.getSetCookie()) {
        const value = cookie.split(";")[0].split("=").slice(1).join("=");
        if (value.length > 8) secrets.set(`cookie ${cookie.split("=")[0]}`, value);
        // Under https every cookie is Secure, HttpOnly and SameSite.
        expect(cookie).toMatch(/;\s*Secure/i);
        expect(cookie).toMatch(/;\s*HttpOnly/i);
        expect(cookie).toMatch(/;\s*SameSite=(Lax|Strict)/i);
      }
      return response;
    };

    // Sign up, confirm by the e-mailed link, sign in (and fail once).
    remember(
      await browser.postJson(
        "/api/auth/sign-up/email",
        { firstName: "Logan", lastName: "Quiet", email, password: firstPassword },
        secure,
      ),
    );
    const confirmation = await waitForMail(mailbox.mails, email, /confirm/i);
    const verifyLink = new URL(linkIn(confirmation.text, "/verify-email"));
    secrets.set("verification token", verifyLink.searchParams.get("token")!);
    const verified = remember(await browser.get(verifyLink.pathname + verifyLink.search, secure));
    expect(verified.status).toBe(302);
    expect(
      (
        await browser.postJson(
          "/api/auth/sign-in/email",
          { email, password: wrongPassword },
          secure,
        )
      ).status,
    ).toBe(401);
    const signedIn = remember(
      await browser.postJson("/api/auth/sign-in/email", { email, password: firstPassword }, secure),
    );
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.getSetCookie().join()).toContain("__Secure-better-auth.session_token=");
    expect(signedIn.headers.get("strict-transport-security")).toMatch(/max-age=/);

    // Two-factor: enrol (secret and backup codes), confirm with a code.
    const enrol = remember(
      await browser.postForm(
        "/account",
        { intent: "two-factor-enable", password: firstPassword },
        secure,
      ),
    );
    expect(enrol.status).toBe(200);
    const { enrolment } = (await enrol.json()) as {
      enrolment: { secret: string; backupCodes: string[] };
    };
    secrets.set("TOTP secret", enrolment.secret);
    enrolment.backupCodes.forEach((code, i) => secrets.set(`backup code ${i}`, code));
    const confirm = remember(
      await browser.postForm(
        "/account",
        { intent: "two-factor-verify", code: totp(enrolment.secret) },
        secure,
      ),
    );
    expect(confirm.status).toBe(200);

    // Forgot the password: the e-mailed link, then a new password.
    remember(
      await browser.postJson(
        "/api/auth/request-password-reset",
        { email, redirectTo: "/auth" },
        secure,
      ),
    );
    const reset = await waitForMail(mailbox.mails, email, /reset/i);
    const resetLink = new URL(linkIn(reset.text, "/reset-password/"));
    const token = resetLink.pathname.split("/").pop()!;
    secrets.set("reset token", token);
    const landing = await browser.get(resetLink.pathname + resetLink.search, secure);
    expect(landing.status).toBe(302);
    const changed = remember(
      await browser.postJson(
        "/api/auth/reset-password",
        { newPassword: secondPassword, token },
        secure,
      ),
    );
    expect(changed.status).toBe(200);

    // Sign in again: password, then a backup code as the second factor.
    const again = new HttpClient(server.origin, publicUrl);
    const first = remember(
      await again.postJson("/api/auth/sign-in/email", { email, password: secondPassword }, secure),
    );
    expect(await first.json()).toMatchObject({ twoFactorRedirect: true });
    const second = remember(
      await again.postJson(
        "/api/auth/two-factor/verify-backup-code",
        { code: enrolment.backupCodes[0] },
        secure,
      ),
    );
    expect(second.status).toBe(200);
    await again.postForm("/account", { intent: "sign-out" }, secure);
    await server.stop();

    const lines = server.output().split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThan(10);
    const leaks: string[] = [];
    for (const [name, value] of secrets) {
      for (const line of lines) if (line.includes(value)) leaks.push(`${name} in: ${line}`);
    }
    expect(leaks).toEqual([]);
    console.log(`logs: ${lines.length} lines checked for ${secrets.size} secrets`);
  } finally {
    await server?.stop();
    await mailbox.close();
    await s3.stop();
    await database.drop();
  }
});

async function waitForMail(mails: CapturedMail[], to: string, subject: RegExp) {
  await expect
    .poll(() => mails.some((m) => m.to.includes(to) && subject.test(m.subject)), {
      timeout: 15_000,
    })
    .toBe(true);
  return mails.filter((m) => m.to.includes(to) && subject.test(m.subject)).at(-1)!;
}

function linkIn(text: string, contains: string) {
  const link = (text.match(/https?:\/\/[^\s<>"]+/g) ?? []).find((l) => l.includes(contains));
  if (!link) throw new Error(`No link with ${contains} in ${text}`);
  return link;
}
