import fc from "fast-check";
import { HttpClient } from "../support/http";
import { createDatabase, startServer, TEST_AUTH_SECRET } from "../support/processes";
import { appRoutes, fillPattern } from "../support/route-table";
import { signIn, watch } from "../support/fuzz";
import { expect, test } from "./fixtures";

/*
 * Random content types, bodies and query strings at every route of the app, as a stranger, a
 * member and staff would send them, against a production server process of its own: no answer
 * is a 5xx, the process grows by less than 150 MB resident, and /healthz keeps answering.
 * FUZZ_SEED replays a run; FUZZ_RUNS sets its length.
 */

test.describe.configure({ timeout: 300_000 });

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
/**
 * Resident memory the fuzzing may add to the process after start-up (the server as tests run it
 * held about 300 MB at rest on PostgreSQL before any request, when it ran through tsx).
 */
const MEMORY_GROWTH_LIMIT_MB = 150;

const CONTENT_TYPES = [
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=fuzz",
  "multipart/form-data",
  "application/json",
  "text/plain",
  "application/octet-stream",
  "",
  "image/png",
  "application/x-www-form-urlencoded; charset=utf-16",
];

const QUERY_KEYS = [
  "index",
  "apage",
  "cpage",
  "spage",
  "q",
  "cq",
  "status",
  "after",
  "before",
  "request",
  "customerId",
  "token",
  "mode",
  "step",
  "date",
  "notice",
  "appts",
  "method",
  "callbackURL",
];

const ABSURD = [
  "1e309",
  "9999999999999999999999",
  "-1",
  "0",
  "NaN",
  "%00",
  "\u0000",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "' or 1=1 --",
  "🛠️",
  "x".repeat(5000),
];

const FIELD_NAMES = [
  "intent",
  "email",
  "password",
  "firstName",
  "lastName",
  "phone",
  "zip",
  "title",
  "description",
  "priority",
  "notes",
  "status",
  "startsAt",
  "date",
  "photo",
  "name",
  "image",
];

const text = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(...ABSURD));

const formBody = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 10 })), text), {
    maxLength: 8,
  })
  .map((fields) => new URLSearchParams(fields).toString());

const multipartBody = fc
  .array(fc.tuple(fc.constantFrom(...FIELD_NAMES), text, fc.boolean()), { maxLength: 4 })
  .chain((parts) =>
    fc.boolean().map((truncate) => {
      const body = parts
        .map(
          ([name, value, file]) =>
            `--fuzz\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="a.jpg"\r\nContent-Type: image/jpeg' : ""}\r\n\r\n${value}\r\n`,
        )
        .join("");
      return truncate ? body : `${body}--fuzz--\r\n`;
    }),
  );

const jsonBody = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value));

const body = fc.oneof(
  formBody,
  multipartBody,
  jsonBody,
  fc.string({ maxLength: 300 }),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString("latin1")),
  fc.constant(""),
);

const query = fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), text), { maxLength: 4 });

const paramValue = fc.oneof(
  fc.uuid(),
  fc.constantFrom("thumbnail", "full", "profile.webp", "x", "0"),
  fc.string({ minLength: 1, maxLength: 20 }),
);

type Who = "stranger" | "member" | "staff";

test("random bodies, content types and queries at every route: no 5xx, bounded memory, a live /healthz", async () => {
  const database = await createDatabase();
  const server = await startServer(
    { DATABASE_URL: database.url, AUTH_SECRET: TEST_AUTH_SECRET, SEED_DEMO: "true" },
    { readyTimeoutMs: 180_000 },
  );
  try {
    const routes = (await appRoutes()).filter((route) => !route.layout);
    const clients: Record<Who, HttpClient> = {
      stranger: new HttpClient(server.origin),
      member: new HttpClient(server.origin),
      staff: new HttpClient(server.origin),
    };
    await signIn(clients.member, "maria@peachtree-handyman.example", "Maria-demo-2026!");
    await signIn(clients.staff, "staff@peachtree-handyman.example", "Staff-demo-2026!");

    const probes = watch(server);
    const trail: string[] = [];
    const failures: string[] = [];

    await fc
      .assert(
        fc.asyncProperty(
          fc.constantFrom(...routes),
          fc.constantFrom<Who>("stranger", "member", "staff"),
          fc.constantFrom("GET", "POST", "POST", "PUT", "DELETE"),
          fc.constantFrom(...CONTENT_TYPES),
          body,
          query,
          fc.dictionary(
            fc.constantFrom("requestId", "photoId", "appointmentId", "visitId"),
            paramValue,
          ),
          fc.boolean(),
          async (route, who, method, type, payload, pairs, params, dataRequest) => {
            const filled = fillPattern(route.pattern, {
              requestId: params.requestId ?? crypto.randomUUID(),
              photoId: params.photoId ?? crypto.randomUUID(),
              partId: crypto.randomUUID(),
              appointmentId: params.appointmentId ?? crypto.randomUUID(),
              visitId: params.visitId ?? crypto.randomUUID(),
              customerId: crypto.randomUUID(),
              membershipId: crypto.randomUUID(),
              userId: crypto.randomUUID(),
              leadId: crypto.randomUUID(),
              homeId: crypto.randomUUID(),
              applianceId: crypto.randomUUID(),
              id: crypto.randomUUID(),
              table: "members-by-month",
              file: "profile.webp",
              variant: "thumbnail",
              "*": "sign-in/email",
            }).replace(/\/\?$/, "");
            const path =
              (dataRequest && route.hasPage
                ? `${filled.replace(/\/$/, "") || "/_root"}.data`
                : filled) + (pairs.length ? `?${new URLSearchParams(pairs).toString()}` : "");
            const headers: Record<string, string> = type ? { "content-type": type } : {};
            const hasBody = method !== "GET" && payload !== "";
            const response = await clients[who].request(path, {
              method,
              headers,
              ...(hasBody ? { body: payload } : {}),
            });
            await response.arrayBuffer();
            const line = `${who} ${method} ${path} ${type || "(no type)"} ${JSON.stringify(payload).slice(0, 160)} -> ${response.status}`;
            trail.push(line);
            if (response.status >= 500) failures.push(line);
            return response.status < 500;
          },
        ),
        {
          numRuns: RUNS,
          seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
          endOnFailure: true,
        },
      )
      .catch((error: Error) => {
        throw new Error(
          `${error.message}\nFailures:\n${failures.join("\n")}\nLast requests:\n${trail.slice(-15).join("\n")}\nServer output:\n${server.output().slice(-4000)}`,
        );
      });

    const { healthz, peakMb, startMb } = await probes.stop();
    const sorted = [...healthz.latencies].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
    console.log(
      `fuzz: ${RUNS} requests; /healthz ${sorted.length} probes, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${sorted.at(-1)} ms; RSS ${startMb} MB at start, peak ${peakMb} MB`,
    );
    expect(healthz.failures, "every /healthz probe answered 200").toEqual([]);
    expect(peakMb - startMb).toBeLessThan(MEMORY_GROWTH_LIMIT_MB);
  } finally {
    await server.stop();
    await database.drop();
  }
});
