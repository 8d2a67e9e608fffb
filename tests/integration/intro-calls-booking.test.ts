import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { introCalls, outbox } from "~/db/schema";
import { bookIntroCall, schedulerData } from "~/features/intro-calls/booking.server";
import { offeredSlots } from "~/features/intro-calls/slots";
import type { MailMessage } from "~/lib/mail.server";
import {
  createTestDatabase,
  postgresAvailable,
  useTestDatabase,
  type TestDatabase,
} from "../support/test-database";
import { setDatabase } from "~/db/client.server";

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
}

// Tuesday 24 November 2026, 9:00 in Atlanta.
const now = new Date("2026-11-24T14:00:00Z");
const slot = offeredSlots(now)[1].slots[4]; // Wednesday 9:00 AM

describe("booking an intro call", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it("stores the call and queues a confirmation with an .ics in the same transaction", async () => {
    const result = await bookIntroCall(
      form({
        name: "Ada Booker",
        email: "Ada@Example.com",
        phone: "(404) 555-0170",
        startsAt: slot.toISOString(),
      }),
      { clientAddress: "192.0.2.10", now },
    );
    expect(result.outcome).toBe("booked");
    expect(result.booking?.when).toBe("Wednesday, November 25 at 9:00 AM ET");
    const [call] = await database.db
      .select()
      .from(introCalls)
      .where(eq(introCalls.email, "ada@example.com"));
    expect(call.startsAt.toISOString()).toBe(slot.toISOString());
    const [mail] = await database.db.select().from(outbox).where(eq(outbox.kind, "email"));
    const message = mail.payload as MailMessage;
    expect(message.to).toBe("ada@example.com");
    expect(message.subject).toBe("Your intro call is booked: Wednesday, November 25 at 9:00 AM ET");
    const ics = message.attachments![0];
    expect(ics).toMatchObject({ filename: "intro-call.ics", contentType: "text/calendar" });
    expect(ics.content).toContain("DTSTART:20261125T140000Z");
    expect(ics.content).toContain("DURATION:PT15M");
    expect(ics.content).toContain("STATUS:CONFIRMED");
  });

  it("no longer offers a booked slot, and refuses it to the next person", async () => {
    const data = await schedulerData(now);
    if (data.mode !== "builtin") throw new Error("expected the built-in scheduler");
    expect(data.days.flatMap((d) => d.slots.map((s) => s.startsAt))).not.toContain(
      slot.toISOString(),
    );
    const second = await bookIntroCall(
      form({
        name: "Bo Late",
        email: "bo@example.com",
        phone: "404-555-0171",
        startsAt: slot.toISOString(),
      }),
      { clientAddress: "192.0.2.11", now },
    );
    expect(second.outcome).toBe("taken");
    expect(second.toast.title).toBe("That time was just taken");
  });

  it("refuses times the calendar does not offer", async () => {
    for (const startsAt of [
      "2026-11-28T15:00:00.000Z",
      "2026-11-25T14:05:00.000Z",
      "2026-11-24T13:45:00.000Z",
    ]) {
      const result = await bookIntroCall(
        form({ name: "Cy Odd", email: "cy@example.com", phone: "404-555-0172", startsAt }),
        { clientAddress: "192.0.2.12", now },
      );
      expect(result).toMatchObject({
        outcome: "invalid",
        result: { error: { startsAt: [expect.any(String)] } },
      });
    }
  });
});

describe.skipIf(!postgresAvailable())("concurrent bookings on PostgreSQL", () => {
  it("of ten people racing for one slot, exactly one gets it", async () => {
    const database = await createTestDatabase({ kind: "postgres", poolSize: 10 });
    setDatabase(database);
    try {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          bookIntroCall(
            form({
              name: "Racer Person",
              email: `racer${i}@example.com`,
              phone: "404-555-0180",
              startsAt: slot.toISOString(),
            }),
            { clientAddress: `192.0.2.${100 + i}`, now },
          ),
        ),
      );
      expect(results.filter((r) => r.outcome === "booked")).toHaveLength(1);
      expect(results.filter((r) => r.outcome === "taken")).toHaveLength(9);
      expect(await database.db.select().from(introCalls)).toHaveLength(1);
      // One confirmation to the caller and one alert to the office.
      const mails = (await database.db.select().from(outbox)).map(
        (row) => (row.payload as { to: string }).to,
      );
      const [winner] = await database.db.select().from(introCalls);
      expect(mails.sort()).toEqual(["hello@peachtree-handyman.example", winner.email].sort());
    } finally {
      await database.drop();
    }
  });
});
