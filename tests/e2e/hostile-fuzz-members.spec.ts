import fs from "node:fs";
import { and, desc, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { appointments, memberships, user } from "~/db/schema";
import { addDays, businessToday, isBusinessDay, closedDays } from "~/lib/business-calendar";
import { seedDemo } from "../../server/seed/demo";
import {
  createHome,
  createMembership,
  createMemberVisit,
  createServiceRequest,
  createUser,
} from "../../server/seed/factories";
import { HttpClient } from "../support/http";
import {
  createDatabase,
  startServer,
  tempDir,
  TEST_AUTH_SECRET,
  type ServerProcess,
} from "../support/processes";
import { signIn, watch } from "../support/fuzz";
import { expect, test } from "./fixtures";

/*
 * The hostile fuzz of the member and visit routes (issue 25, item 9): the membership, visit,
 * availability, schedule and statement routes and their .data URLs, as a stranger, a member, another
 * member and staff, with the real ids of both members' memberships and visits (random ids only meet
 * 404s), on PostgreSQL and on the embedded database. The member has a long history (over 2,000
 * ledger entries), the data that once killed the embedded server. No answer is a 5xx and /healthz
 * answers 200 throughout. FUZZ_SEED replays a run; MEMBER_FUZZ_RUNS sets its length.
 */

test.describe.configure({ timeout: 600_000 });

const RUNS = Number(process.env.MEMBER_FUZZ_RUNS ?? 300);
/** Book-and-cancel pairs written into the member's ledgers: 2 entries each in both ledgers. */
const HISTORY_PAIRS = 1_100;
const OTHER_PASSWORD = "Other-member-2026!";

type Who = "stranger" | "member" | "other" | "staff";
type Family = "membership" | "visit" | "availability" | "schedule" | "statement";

type World = {
  maria: { id: string; membershipId: string; visitIds: string[] };
  other: { id: string; email: string; membershipId: string; visitIds: string[] };
};

const ABSURD = [
  "",
  "0",
  "-1",
  "1e309",
  "NaN",
  "9999-12-31",
  "9999-99-99",
  "1926-01-01",
  "2026-02-30",
  "\u0000",
  "\u0007",
  "' or 1=1 --",
  "<script>alert(1)</script>",
  "x".repeat(3000),
  "25:61",
  "99999999999",
];

const INTENTS = [
  "cancel",
  "move",
  "start",
  "payment",
  "complete",
  "add-part",
  "part-bought",
  "approve-part",
  "decline-part",
  "hours",
  "time-off",
  "remove-time-off",
  "close-day",
  "open-day",
  "book",
];

const FIELDS = [
  "date",
  "startDate",
  "endDate",
  "start",
  "block",
  "tasks",
  "task",
  "employee",
  "note",
  "notes",
  "amount",
  "method",
  "reference",
  "plan",
  "billing",
  "minutesWorked",
  "partId",
  "appointmentId",
  "cost",
  "description",
  "asExtra",
  "week",
];

const QUERY_KEYS = ["tab", "spage", "page", "date", "block", "step", "week", "employee", "saved"];

function futureWorkday(from: string, ahead: number) {
  const closed = closedDays();
  let day = addDays(from, ahead);
  while (!isBusinessDay(day, closed)) day = addDays(day, 1);
  return day;
}

/** The demo data, another member with a visit, and the demo member's long history. */
async function prepare(handle: DatabaseHandle): Promise<World> {
  const db = handle.db;
  await handle.migrate();
  await seedDemo(db);
  const [maria] = await db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, "maria@peachtree-handyman.example"));
  const [mariaMembership] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.customerId, maria.id), eq(memberships.status, "active")));

  const other = await createUser(db, {
    email: `other-${Date.now()}@example.com`,
    password: OTHER_PASSWORD,
    firstName: "Olu",
    lastName: "Other",
  });
  const home = await createHome(db, other.id, { address: "12 Other St" });
  const otherMembership = await createMembership(db, other.id, {
    plan: "complete",
    billing: "annual",
    startDate: businessToday(),
  });
  const task = await createServiceRequest(db, home, { title: "Fix the fence" });
  const [staff] = await db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, "staff@peachtree-handyman.example"));
  const { appointment } = await createMemberVisit(db, home, {
    scheduledDate: futureWorkday(businessToday(), 9),
    startTime: "15:00",
    endTime: "16:45",
    assignedEmployeeId: staff.id,
    tasks: [task.title],
  });

  // The long history: a visit booked and canceled HISTORY_PAIRS times (its block out and back in
  // the hours ledger) and as many extra-visit charges paid by card in the money ledger, each entry
  // with the balance that follows from the one before.
  await db.execute(sql`
    with last as (
      select balance_after from membership_minutes_ledger
      where membership_id = ${mariaMembership.id} order by id desc limit 1
    )
    insert into membership_minutes_ledger
      (membership_id, kind, minutes, balance_after, note, created_at)
    select ${mariaMembership.id}, k.kind::membership_minutes_kind, k.minutes,
      (select balance_after from last) + case when k.kind = 'reserve' then -105 else 0 end,
      case when k.kind = 'reserve' then 'Visit booked' else 'Visit canceled' end,
      now() - interval '1 minute' * (${HISTORY_PAIRS} - n)
    from generate_series(1, ${HISTORY_PAIRS}) as n,
      lateral (values (1, 'reserve', -105), (2, 'release', 105)) as k(step, kind, minutes)
    order by n, k.step
  `);
  await db.execute(sql`
    with last as (
      select coalesce((select balance_after from membership_money_ledger
        where membership_id = ${mariaMembership.id} order by id desc limit 1), 0) as balance
    )
    insert into membership_money_ledger
      (membership_id, kind, amount_cents, balance_after, description, payment_method, created_at)
    select ${mariaMembership.id}, k.kind::membership_money_kind, k.amount,
      (select balance from last) + case when k.kind = 'extra_visit' then 15000 else 0 end,
      case when k.kind = 'extra_visit' then 'Extra visit' else 'Payment' end,
      case when k.kind = 'payment' then 'card'::payment_method end,
      now() - interval '1 minute' * (${HISTORY_PAIRS} - n)
    from generate_series(1, ${HISTORY_PAIRS}) as n,
      lateral (values (1, 'extra_visit', 15000), (2, 'payment', -15000)) as k(step, kind, amount)
    order by n, k.step
  `);

  const visitsOf = async (customerId: string) =>
    (
      await db
        .select({ id: appointments.id })
        .from(appointments)
        .where(eq(appointments.customerId, customerId))
        .orderBy(desc(appointments.scheduledDate))
    ).map((v) => v.id);
  return {
    maria: { id: maria.id, membershipId: mariaMembership.id, visitIds: await visitsOf(maria.id) },
    other: {
      id: other.id,
      email: other.email,
      membershipId: otherMembership.id,
      visitIds: [appointment.id],
    },
  };
}

function paths(world: World) {
  const customer = fc.constantFrom(world.maria.id, world.other.id, crypto.randomUUID(), "x");
  const membership = fc.constantFrom(
    world.maria.membershipId,
    world.other.membershipId,
    crypto.randomUUID(),
    "0",
  );
  const visit = fc.constantFrom(
    ...world.maria.visitIds,
    ...world.other.visitIds,
    crypto.randomUUID(),
    "9999",
  );
  const family = <T>(name: Family, arbitrary: fc.Arbitrary<T>) =>
    arbitrary.map((path) => ({ family: name, path: String(path) }));
  return fc.oneof(
    family("membership", fc.constant("/dashboard?tab=membership")),
    family(
      "membership",
      customer.map((id) => `/employee/customers/${id}/membership`),
    ),
    family(
      "visit",
      visit.map((id) => `/dashboard/visits/${id}`),
    ),
    family(
      "visit",
      visit.map((id) => `/dashboard/appointments/${id}/calendar`),
    ),
    family(
      "visit",
      customer.map((id) => `/employee/customers/${id}/visit-spend`),
    ),
    family("availability", fc.constant("/employee/availability")),
    family("schedule", fc.constantFrom("/employee/schedule", "/dashboard/book")),
    family("schedule", fc.constant("/dashboard?tab=schedule")),
    family(
      "statement",
      membership.map((id) => `/dashboard/memberships/${id}/statement`),
    ),
  );
}

const text = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(...ABSURD));

function requests(world: World) {
  const known = fc.constantFrom(
    ...world.maria.visitIds,
    ...world.other.visitIds,
    world.maria.membershipId,
  );
  const field = fc.tuple(fc.constantFrom(...FIELDS), fc.oneof(text, known));
  const form = fc
    .tuple(fc.constantFrom(...INTENTS), fc.array(field, { maxLength: 6 }))
    .map(([intent, fields]) => new URLSearchParams([["intent", intent], ...fields]).toString());
  return fc.record({
    who: fc.constantFrom<Who>("stranger", "member", "other", "staff"),
    method: fc.constantFrom("GET", "GET", "POST", "POST", "POST"),
    target: paths(world),
    data: fc.boolean(),
    query: fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), text), { maxLength: 3 }),
    body: fc.oneof(
      form,
      form,
      fc.string({ maxLength: 200 }),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    ),
    type: fc.constantFrom(
      "application/x-www-form-urlencoded",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=fuzz",
      "application/json",
      "",
    ),
  });
}

for (const kind of ["postgres", "pglite"] as const) {
  test(`member and visit routes, a member with over 2,000 ledger entries (${kind}): no 5xx, a live /healthz`, async () => {
    let server: ServerProcess | undefined;
    let dropDatabase = async () => {};
    let env: Record<string, string>;
    let handle: DatabaseHandle;
    if (kind === "postgres") {
      const database = await createDatabase();
      dropDatabase = database.drop;
      env = { DATABASE_URL: database.url };
      handle = await openDatabase({ databaseUrl: database.url, poolSize: 2 });
    } else {
      const dataDir = tempDir("handyman-fuzz-");
      dropDatabase = async () => fs.rmSync(dataDir, { recursive: true, force: true });
      env = { DATA_DIR: dataDir };
      handle = await openDatabase({ dataDir });
    }
    try {
      const world = await prepare(handle);
      await handle.close();
      server = await startServer(
        { ...env, AUTH_SECRET: TEST_AUTH_SECRET, SEED_DEMO: "false" },
        { readyTimeoutMs: 180_000 },
      );
      const clients: Record<Who, HttpClient> = {
        stranger: new HttpClient(server.origin),
        member: new HttpClient(server.origin),
        other: new HttpClient(server.origin),
        staff: new HttpClient(server.origin),
      };
      await signIn(clients.member, "maria@peachtree-handyman.example", "Maria-demo-2026!");
      await signIn(clients.other, world.other.email, OTHER_PASSWORD);
      await signIn(clients.staff, "staff@peachtree-handyman.example", "Staff-demo-2026!");

      const probes = watch(server);
      const counts = new Map<string, { requests: number; errors: number }>();
      const failures: string[] = [];
      const trail: string[] = [];
      await fc
        .assert(
          fc.asyncProperty(requests(world), async (r) => {
            const [pathname, search] = r.target.path.split("?");
            const params = new URLSearchParams(search);
            for (const [key, value] of r.query) params.append(key, value);
            const dataPath =
              r.data && !/statement|calendar|visit-spend|\/dashboard\/membership$/.test(pathname)
                ? `${pathname}.data`
                : pathname;
            const path = `${dataPath}${params.size ? `?${params}` : ""}`;
            const response = await clients[r.who].request(path, {
              method: r.method,
              headers: r.type ? { "content-type": r.type } : {},
              ...(r.method === "POST" ? { body: r.body } : {}),
            });
            await response.arrayBuffer();
            const key = `${r.target.family}${dataPath.endsWith(".data") ? " (.data)" : ""}`;
            const count = counts.get(key) ?? { requests: 0, errors: 0 };
            count.requests++;
            const line = `${r.who} ${r.method} ${path} ${JSON.stringify(r.body).slice(0, 120)} -> ${response.status}`;
            trail.push(line);
            if (response.status >= 500) {
              count.errors++;
              failures.push(line);
            }
            counts.set(key, count);
            return response.status < 500;
          }),
          {
            numRuns: RUNS,
            seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
            endOnFailure: true,
          },
        )
        .catch((error: Error) => {
          throw new Error(
            `${error.message}\nFailures:\n${failures.join("\n")}\nLast requests:\n${trail.slice(-10).join("\n")}\nServer output:\n${server!.output().slice(-4000)}`,
          );
        });

      // The member's own pages answer whole after the fuzz, whatever it did.
      for (const path of [
        "/dashboard?tab=membership",
        "/dashboard.data?tab=membership",
        `/dashboard/memberships/${world.maria.membershipId}/statement`,
      ]) {
        const response = await clients.member.request(path);
        await response.arrayBuffer();
        expect(response.status, path).toBe(200);
      }
      const staffPage = await clients.staff.request(
        `/employee/customers/${world.maria.id}/membership`,
      );
      await staffPage.arrayBuffer();
      expect(staffPage.status).toBe(200);

      const { healthz, peakMb, startMb } = await probes.stop();
      const table = [...counts]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([family, c]) => `  ${family}: ${c.requests} requests, ${c.errors} 5xx`)
        .join("\n");
      console.log(
        `member fuzz (${kind}): ${RUNS} requests\n${table}\n  /healthz: ${healthz.latencies.length} probes, max ${Math.max(...healthz.latencies)} ms, ${healthz.failures.length} failures; RSS ${startMb} MB at start, peak ${peakMb} MB`,
      );
      expect(failures).toEqual([]);
      expect(healthz.failures, "every /healthz probe answered 200").toEqual([]);
    } finally {
      await server?.stop();
      await dropDatabase();
    }
  });
}
