import { eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, setDatabase, type DatabaseHandle } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { bookVisit } from "~/features/visits/visits.server";
import { resetEnvForTests } from "~/lib/env.server";
import { processOutboxBatch } from "~/lib/outbox.server";
import { createHome, createServiceRequest, createUser } from "../../server/seed/factories";
import { freePort } from "../support/processes";
import { startSink } from "../support/sink";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * The reminder 24 hours before a visit is an outbox row due then: sent exactly once by several
 * workers racing for it (what several server processes do), and not again after a restart.
 * PostgreSQL only (PGlite is one process with one connection).
 */
describe.skipIf(testDatabaseKind() !== "postgres")("visit reminders", () => {
  let database: TestDatabase;
  let sink: Awaited<ReturnType<typeof startSink>>;
  let restarted: DatabaseHandle | undefined;

  beforeAll(async () => {
    const smtpPort = await freePort();
    const httpPort = await freePort();
    sink = await startSink({ smtpPort, httpPort });
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
    process.env.OUTBOX_BASE_BACKOFF_MS = "0";
    process.env.OUTBOX_MAX_BACKOFF_MS = "0";
    resetEnvForTests();
    database = await useTestDatabase({ poolSize: 12 });
  });
  afterAll(async () => {
    await restarted?.close();
    await sink.close();
    await database.drop();
    delete process.env.SMTP_URL;
    resetEnvForTests();
  });

  async function worker() {
    while ((await processOutboxBatch()) > 0) {
      // keep going while there is work
    }
  }

  it("sends the reminder once with racing workers and a restart, and not before it is due", async () => {
    await createUser(database.db, {
      email: "handyman@example.com",
      password: "x",
      firstName: "Dana",
      lastName: "Reyes",
      isEmployee: true,
    });
    const member = await createUser(database.db, {
      email: "member@example.com",
      password: "x",
      firstName: "Maria",
      lastName: "Member",
    });
    const home = await createHome(database.db, member.id, {});
    const first = await createServiceRequest(database.db, home, { title: "Fix the gate" });
    const second = await createServiceRequest(database.db, home, { title: "Hang shelves" });
    // Booked on Monday 16 November for Wednesday the 18th: its reminder is already due.
    const past = await bookVisit(
      member.id,
      { block: 105, date: "2026-11-18", startMinute: 9 * 60, requestIds: [first.id] },
      { now: new Date("2026-11-16T15:00:00Z") },
    );
    // Booked for a date far ahead: its reminder waits.
    const future = await bookVisit(
      member.id,
      { block: 105, date: "2030-01-08", startMinute: 9 * 60, requestIds: [second.id] },
      { now: new Date("2030-01-02T15:00:00Z") },
    );
    expect(past.id).not.toBe(future.id);

    await Promise.all([worker(), worker(), worker()]);
    const reminders = () => sink.mails.filter((m) => m.subject.startsWith("Reminder"));
    expect(reminders()).toHaveLength(1);
    expect(reminders()[0].subject).toContain("Wednesday, November 18, 2026");

    // A restart: a new connection pool (a new process), the same database.
    restarted = await openDatabase({ databaseUrl: database.url! });
    setDatabase(restarted);
    await Promise.all([worker(), worker()]);
    expect(reminders()).toHaveLength(1);
    const waiting = await restarted.db.select().from(outbox).where(isNull(outbox.deliveredAt));
    expect(waiting).toHaveLength(1);
    expect((waiting[0].payload as { subject: string }).subject).toContain("January 8, 2030");
    const [sent] = await restarted.db.select().from(outbox).where(eq(outbox.id, waiting[0].id));
    expect(sent.attempts).toBe(0);
  });
});
