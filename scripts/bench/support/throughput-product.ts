/** The product under the throughput bench: its build, its seeded data and its pages measured. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { createHome, createServiceRequest, createUser } from "../../../server/seed/factories";
import type { ServerProcess } from "../../../tests/support/processes";
import { cpuSeconds, residentMb } from "./proc";
import { MEMBER_REQUESTS, PAGE_CONNECTIONS, PASSWORD, ROOT } from "./throughput-config";
import { wrk, type WrkResult } from "./throughput-wrk";

export function ensureBuild() {
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) {
    execFileSync("node", ["scripts/build.mjs"], { cwd: ROOT, stdio: "inherit" });
  }
}

export const MEMBER = "bench-member@example.com";
export const EMPLOYEE = "bench-staff@example.com";

/** The same data in either database: a member with 30 requests, an employee, 10 neighbours. */
export async function seed(options: { databaseUrl: string } | { dataDir: string }) {
  const handle = await openDatabase(options);
  try {
    await handle.migrate();
    const db = handle.db;
    await createUser(db, {
      email: EMPLOYEE,
      password: PASSWORD,
      firstName: "Dana",
      lastName: "Bench",
      isEmployee: true,
    });
    const member = await createUser(db, {
      email: MEMBER,
      password: PASSWORD,
      firstName: "Maria",
      lastName: "Bench",
      phone: "(404) 555-0181",
    });
    const home = await createHome(db, member.id, { propertyNotes: "Gate code 2468." });
    const statuses = ["new", "reviewed", "scheduled", "complete"] as const;
    const day = 86_400_000;
    for (let i = 0; i < MEMBER_REQUESTS; i++) {
      await createServiceRequest(db, home, {
        title: `Request ${i + 1}: the hall closet door sticks`,
        description: "The hall closet door sticks in humid weather and needs planing.",
        priority: i % 2 === 0 ? "next" : "later",
        status: statuses[i % 4],
        position: i,
        createdAt: new Date(Date.now() - (MEMBER_REQUESTS - i) * day),
      });
    }
    for (let c = 0; c < 10; c++) {
      const neighbour = await createUser(db, {
        email: `bench-neighbour-${c}@example.com`,
        password: PASSWORD,
        firstName: "Neighbour",
        lastName: `Bench ${c}`,
      });
      const neighbourHome = await createHome(db, neighbour.id);
      for (let i = 0; i < 10; i++) {
        await createServiceRequest(db, neighbourHome, {
          title: `Neighbour ${c} request ${i + 1}`,
          description: "A loose handrail on the back steps.",
          status: statuses[(c + i) % 4],
          position: i,
        });
      }
    }
  } finally {
    await handle.close();
  }
}

export async function signIn(origin: string, email: string, ip: string) {
  const response = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin, "x-forwarded-for": ip },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (response.status !== 200)
    throw new Error(`sign-in of ${email}: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Fails the bench when a page answers anything but 200 (a redirect would flatter wrk's count). */
export async function expectPage(
  url: string,
  headers: Record<string, string>,
  mustContain?: string,
) {
  const response = await fetch(url, { headers, redirect: "manual" });
  const body = await response.text();
  if (response.status !== 200 || (mustContain && !body.includes(mustContain)))
    throw new Error(`${url}: ${response.status}, expected 200 with "${mustContain ?? ""}"`);
}

export type Measured = Record<string, WrkResult>;

/**
 * /auth as React Router renders it per request: a browser that still carries a session cookie
 * that is no longer a session (signed out elsewhere, expired). A visitor without Better Auth's
 * cookies gets the page rendered at start, from the fast path (ADR 034).
 */
export const AUTH_RENDERED = "/auth, rendered (a stale session cookie)";

/** Which floor page anchors each of our pages: the one measured just before it. */
const ANCHOR_OF: Record<string, "form" | "list" | undefined> = {
  "/auth": "form",
  [AUTH_RENDERED]: "form",
  "/dashboard": "list",
  "/dashboard.data": "list",
  "/employee": "list",
};

/**
 * Our pages, each measured right after its floor page (the anchor): on a shared machine the
 * load moves within minutes, and a ratio is only fair between two figures taken under the same
 * load. Returns our figures and, by the same keys, the anchors measured just before them.
 */
export async function measureProduct(
  server: ServerProcess,
  kind: string,
  floorPage: (page: "form" | "list") => Promise<WrkResult>,
  databasePid?: number,
): Promise<{ results: Measured; anchors: Measured }> {
  const serverPids = [server.child.pid!, ...(databasePid ? [databasePid] : [])];
  const origin = server.origin.replace("localhost", "127.0.0.1");
  const member = await signIn(server.origin, MEMBER, "10.0.0.1");
  const employee = await signIn(server.origin, EMPLOYEE, "10.0.0.2");
  const html = { accept: "text/html" };
  const pages: [string, string, Record<string, string>, string?][] = [
    ["/auth", "/auth", html, "Sign in"],
    [AUTH_RENDERED, "/auth", { ...html, cookie: "better-auth.session_token=stale" }, "Sign in"],
    ["/dashboard", "/dashboard", { ...html, cookie: member }, "Request 30"],
    ["/dashboard.data", "/dashboard.data", { cookie: member }, "Request 30"],
    ["/employee", "/employee", { ...html, cookie: employee }, "Neighbour"],
    ["/healthz", "/healthz", {}, "ok"],
  ];
  const results: Measured = {};
  const anchors: Measured = {};
  for (const [key, pathName, headers, mustContain] of pages) {
    await expectPage(`${origin}${pathName}`, headers, mustContain);
    const anchor = ANCHOR_OF[key];
    if (anchor) anchors[key] = await floorPage(anchor);
    console.log(`throughput bench: ${kind} ${pathName}`);
    const label = key === AUTH_RENDERED ? `GET ${key}` : `GET ${pathName}`;
    results[key] = await wrk(`${kind}: ${label}`, `${origin}${pathName}`, {
      connections: PAGE_CONNECTIONS,
      headers,
      serverPids,
    });
  }
  return { results, anchors };
}

/** Resident memory and CPU share of a process left alone: 10 s to settle, then `seconds`. */
export async function atRest(pid: number, seconds: number) {
  await new Promise((r) => setTimeout(r, 10_000));
  const before = cpuSeconds(pid) ?? 0;
  const started = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const used = (cpuSeconds(pid) ?? 0) - before;
  return { residentMb: residentMb(pid), cpuShare: used / ((Date.now() - started) / 1000) };
}
