import { eq } from "drizzle-orm";
import type * as Ics from "ics";
import type * as Booking from "~/features/intro-calls/booking.server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { introCalls, outbox } from "~/db/schema";
import { bookIntroCall } from "~/features/intro-calls/booking.server";
import { offeredSlots } from "~/features/intro-calls/slots";
import type { MailMessage } from "~/lib/mail.server";
import { action } from "~/routes/book-call";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * /book-call and its e-mail rule (ADR 027): an address the calendar or mail library cannot
 * carry is refused with the form's message before anything is stored; a calendar file that
 * fails after the booking costs the attachment, never the booking; and an error answer carries
 * its messages only, never the submitted fields or a library's error object.
 */

const calendar = vi.hoisted(() => ({ fail: false }));
vi.mock("ics", async (importOriginal) => {
  const actual = await importOriginal<typeof Ics>();
  return {
    ...actual,
    createEvent: ((...args: Parameters<typeof actual.createEvent>) =>
      calendar.fail
        ? { error: { name: "ValidationError", value: args[0] }, value: undefined }
        : actual.createEvent(...args)) as typeof actual.createEvent,
  };
});

const booking = vi.hoisted(() => ({ throwInstead: undefined as unknown }));
vi.mock("~/features/intro-calls/booking.server", async (importOriginal) => {
  const actual = await importOriginal<typeof Booking>();
  return {
    ...actual,
    bookIntroCall: (...args: Parameters<typeof actual.bookIntroCall>) =>
      booking.throwInstead === undefined
        ? actual.bookIntroCall(...args)
        : Promise.reject(booking.throwInstead),
  };
});

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
}

// Tuesday 24 November 2026, 9:00 in Atlanta.
const now = new Date("2026-11-24T14:00:00Z");
const slots = offeredSlots(now)[2].slots;

/** Calls the route's action as the server would, for a document or for the page's script. */
async function postBookCall(values: Record<string, string>, scriptRequest: boolean) {
  const request = new Request("http://localhost/book-call", { method: "POST", body: form(values) });
  const context = { clientAddress: "192.0.2.50", scriptRequest } as never;
  const answer = (await action({ request, context, params: {} } as never)) as unknown as {
    data: Record<string, unknown>;
    init: { status?: number } | null;
  };
  return { body: answer.data, status: answer.init?.status };
}

describe("/book-call refuses what the calendar cannot carry, and keeps what it booked", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it("josé@example.com: the form's e-mail message, nothing booked, nothing queued", async () => {
    const result = await bookIntroCall(
      form({
        name: "José Núñez",
        email: "josé@example.com",
        phone: "(404) 555-0190",
        startsAt: slots[0].toISOString(),
      }),
      { clientAddress: "192.0.2.40", now },
    );
    expect(result).toMatchObject({
      ok: false,
      outcome: "invalid",
      toast: {
        kind: "error",
        title: "Invalid email",
        description: "Please enter a valid email address",
      },
      result: { status: "error", error: { email: ["Please enter a valid email address"] } },
    });
    expect(await database.db.select().from(introCalls)).toEqual([]);
    expect(await database.db.select().from(outbox)).toEqual([]);
  });

  it("a calendar file that fails after booking costs the attachment, not the booking", async () => {
    calendar.fail = true;
    try {
      const result = await bookIntroCall(
        form({
          name: "Cal Endar",
          email: "cal@example.com",
          phone: "(404) 555-0191",
          startsAt: slots[1].toISOString(),
        }),
        { clientAddress: "192.0.2.41", now },
      );
      expect(result.outcome).toBe("booked");
    } finally {
      calendar.fail = false;
    }
    const calls = await database.db
      .select()
      .from(introCalls)
      .where(eq(introCalls.email, "cal@example.com"));
    expect(calls).toHaveLength(1);
    const [mail] = await database.db.select().from(outbox).where(eq(outbox.kind, "email"));
    const message = mail.payload as MailMessage;
    expect(message.to).toBe("cal@example.com");
    expect(message.attachments).toEqual([]);
    expect(message.text).not.toContain("attached calendar file");
  });

  it("an error answer carries its messages only, for the page's script and for a document", async () => {
    const values = {
      name: "Priv Ate",
      email: "private@example.com",
      phone: "(404) 555-0192",
      startsAt: slots[2].toISOString(),
    };
    // A library's error object that is not an Error, holding the whole booking.
    booking.throwInstead = {
      name: "ValidationError",
      value: { uid: "intro-call-5f1c", attendees: [{ name: values.name, email: values.email }] },
      description: `We will call you at ${values.phone}`,
    };
    try {
      for (const scriptRequest of [true, false]) {
        const { body, status } = await postBookCall(values, scriptRequest);
        expect(status).toBe(500);
        expect(body).toEqual({
          ok: false,
          outcome: "error",
          toast: {
            kind: "error",
            title: "Error",
            description: "Something went wrong. Please try again.",
          },
        });
      }
    } finally {
      booking.throwInstead = undefined;
    }

    // A refused booking answers with messages too: nothing of what was sent comes back.
    const { body } = await postBookCall({ ...values, email: "josé@example.com" }, true);
    expect(Object.keys(body).sort()).toEqual(["ok", "outcome", "result", "toast"]);
    expect(body.result).not.toHaveProperty("initialValue");
    const text = JSON.stringify(body);
    for (const sent of [values.name, "josé", values.phone, values.startsAt])
      expect(text).not.toContain(sent);
  });
});
