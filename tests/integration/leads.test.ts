import net from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { leadEntries, outbox, rateLimits } from "~/db/schema";
import { submitCityLead, submitHomeLead } from "~/features/leads/submit.server";
import { business } from "~/lib/business.server";
import { resetEnvForTests } from "~/lib/env.server";
import { processOutboxBatch } from "~/lib/outbox.server";
import { startSink } from "../support/sink";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

async function freePort() {
  return new Promise<number>((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
}

let address = 0;
/** Each case gets its own client address, so the per-address limit counts that case alone. */
const context = () => ({ clientAddress: `192.0.2.${++address}`, pageUrl: "http://localhost/" });

describe("lead capture", () => {
  let database: TestDatabase;
  let sink: Awaited<ReturnType<typeof startSink>>;

  beforeAll(async () => {
    const smtpPort = await freePort();
    const httpPort = await freePort();
    sink = await startSink({ smtpPort, httpPort });
    process.env.LEAD_WEBHOOK_URL = `http://127.0.0.1:${httpPort}/webhook`;
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
    process.env.OUTBOX_BASE_BACKOFF_MS = "0";
    process.env.OUTBOX_MAX_BACKOFF_MS = "0";
    resetEnvForTests();
    database = await useTestDatabase();
  });
  afterAll(async () => {
    await sink.close();
    await database.drop();
    delete process.env.LEAD_WEBHOOK_URL;
    delete process.env.SMTP_URL;
    resetEnvForTests();
  });
  beforeEach(async () => {
    sink.calls.length = 0;
    sink.setWebhookUp(true);
    await database.db.delete(outbox);
    await database.db.delete(rateLimits);
  });

  it("saves a home lead (e-mail lower-cased, name as written, spaces tidied) with its webhook call, in one go", async () => {
    const result = await submitHomeLead(
      form({ name: "  Ana   María O’Neil ", zipCode: " 30305 ", email: " Ana@Example.COM " }),
      context(),
    );
    expect(result).toMatchObject({ ok: true, outcome: "saved" });
    expect(result.toast.title).toBe("Thank you for your interest!");
    const [lead] = await database.db
      .select()
      .from(leadEntries)
      .where(eq(leadEntries.email, "ana@example.com"));
    expect(lead).toMatchObject({ name: "Ana María O’Neil", zipCode: "30305", source: "home" });
    const [item] = await database.db.select().from(outbox).where(eq(outbox.kind, "lead_webhook"));
    expect(item.payload).toEqual({
      leadId: lead.id,
      body: {
        name: "Ana María O’Neil",
        email: "ana@example.com",
        zipCode: "30305",
        formType: "contact",
        timestamp: lead.createdAt.toISOString(),
        page_url: "http://localhost/",
      },
    });
    // The webhook, the office's alert and the visitor's acknowledgement.
    expect(await processOutboxBatch()).toBe(3);
    expect(sink.calls.map((c) => c.body)).toEqual([(item.payload as { body: unknown }).body]);
    // The office hears of it by e-mail: the person's name and contact, a staff link.
    const alert = sink.mails.find((m) => /New lead/.test(m.subject))!;
    expect(alert.to).toEqual(["hello@peachtree-handyman.example"]);
    expect(alert.subject).toBe("New lead: Ana María O’Neil");
    expect(alert.text).toContain("ana@example.com");
    expect(alert.text).toContain("30305");
    expect(alert.text).toMatch(/http:\/\/localhost:\d+\/employee/);
    expect(alert.text).not.toContain("/dashboard");
  });

  it("e-mails the home page's visitor an acknowledgement, once for a double post", async () => {
    const values = { name: "Jo Ack", zipCode: "30306", email: "jo.ack@example.com" };
    // Sent twice at once (a double tap), then once more: one lead, one acknowledgement.
    const [first, second] = await Promise.all([
      submitHomeLead(form(values), context()),
      submitHomeLead(form(values), context()),
    ]);
    expect(first.ok && second.ok).toBe(true);
    await submitHomeLead(form(values), context());
    const queued = await database.db.select().from(outbox).where(eq(outbox.kind, "email"));
    const acks = queued.filter((q) => (q.payload as { to: string }).to === "jo.ack@example.com");
    expect(acks).toHaveLength(1);
    while ((await processOutboxBatch()) > 0);
    const mails = sink.mails.filter((m) => m.to.includes("jo.ack@example.com"));
    expect(mails).toHaveLength(1);
    const [ack] = mails;
    expect(ack.subject).toBe(`We received your request: ${business().name}`);
    expect(ack.text).toContain("Hello Jo Ack,");
    expect(ack.text).toContain("What happens next: our office will be in touch soon");
    expect(ack.text).toContain(`Call us at ${business().phone}`);
    // The office's alert names the ZIP code's city.
    const alert = sink.mails.find((m) => m.subject === "New lead: Jo Ack")!;
    expect(alert.text).toContain("ZIP code: 30306 Atlanta");
  });

  it("sends no acknowledgement for a city page's lead (it has its own message)", async () => {
    await submitCityLead(
      form({
        name: "Cy Page",
        phone: "4045550123",
        email: "cy.page@example.com",
        message: "A leaking faucet in the kitchen",
      }),
      { ...context(), source: "decatur-handyman" },
    );
    const queued = await database.db.select().from(outbox).where(eq(outbox.kind, "email"));
    expect(queued.map((q) => (q.payload as { to: string }).to)).not.toContain(
      "cy.page@example.com",
    );
  });

  it("refuses invalid input with the spec's messages and stores nothing", async () => {
    const cases: [Record<string, string>, string, string][] = [
      [
        { name: "J", zipCode: "30305", email: "j@example.com" },
        "Invalid name",
        "Name must be at least 2 characters",
      ],
      [
        { name: "Jo", zipCode: "3030", email: "j@example.com" },
        "Invalid zip code",
        "Please enter a valid zip code",
      ],
      [
        { name: "Jo", zipCode: "30305-12", email: "j@example.com" },
        "Invalid zip code",
        "Please enter a valid zip code",
      ],
      [
        { name: "Jo", zipCode: "30305", email: "j@example" },
        "Invalid email",
        "Please enter a valid email address",
      ],
      [{ zipCode: "30305", email: "j@example.com" }, "Invalid name", "Name is required"],
    ];
    for (const [values, title, description] of cases) {
      const result = await submitHomeLead(form(values), context());
      expect(result).toMatchObject({
        ok: false,
        outcome: "invalid",
        toast: { title, description },
      });
    }
    expect(
      await database.db.select().from(leadEntries).where(eq(leadEntries.email, "j@example.com")),
    ).toEqual([]);
    // ZIP+4 is a valid zip code.
    expect(
      (
        await submitHomeLead(
          form({ name: "Jo", zipCode: "30305-1234", email: "zip4@example.com" }),
          context(),
        )
      ).outcome,
    ).toBe("saved");
  });

  it("allows 3 submissions per e-mail in 10 minutes, then tells how long to wait", async () => {
    const values = { name: "Rae Peat", zipCode: "30303", email: "rae@example.com" };
    for (let i = 0; i < 3; i++)
      expect((await submitHomeLead(form(values), context())).outcome).toBe("saved");
    const refused = await submitHomeLead(form(values), context());
    expect(refused.outcome).toBe("rate-limited");
    expect(refused.toast.title).toBe("Too many submissions");
    expect(refused.toast.description).toMatch(
      /^Please wait ([1-9]|10) minutes before submitting again\.$/,
    );
  });

  it("saves a city lead with phone and message and the spec's city payload", async () => {
    const result = await submitCityLead(
      form({ name: "Lee Park", phone: "404-555-0150", email: "LEE@example.com", message: "" }),
      { ...context(), source: "brookhaven-handyman" },
    );
    expect(result.outcome).toBe("saved");
    expect(result.toast.description).toContain("received and saved");
    const [lead] = await database.db
      .select()
      .from(leadEntries)
      .where(eq(leadEntries.email, "lee@example.com"));
    expect(lead).toMatchObject({
      phone: "404-555-0150",
      message: null,
      source: "brookhaven-handyman",
    });
    const [item] = await database.db.select().from(outbox).where(eq(outbox.kind, "lead_webhook"));
    expect((item.payload as { body: unknown }).body).toEqual({
      name: "Lee Park",
      email: "lee@example.com",
      phone: "404-555-0150",
      message: null,
      formType: "contact",
    });
  });

  it("when the database refuses the lead, the webhook gets it directly; if that fails too, 'not successful'", async () => {
    await database.db.execute(sql`
      create or replace function refuse_lead() returns trigger language plpgsql as $$
      begin raise exception 'simulated failure'; end $$`);
    await database.db.execute(
      sql`create trigger refuse_lead before insert on leads for each row execute function refuse_lead()`,
    );
    try {
      const elsewhere = await submitCityLead(
        form({ name: "Fay Back", phone: "404-555-0160", email: "fay@example.com" }),
        { ...context(), source: "decatur-handyman" },
      );
      expect(elsewhere.outcome).toBe("saved-elsewhere");
      expect(elsewhere.toast.description).toBe(
        "We'll contact you within 24 hours to schedule your consultation.",
      );
      expect(sink.calls.map((c) => (c.body as { email: string }).email)).toEqual([
        "fay@example.com",
      ]);
      expect(await database.db.select().from(outbox)).toEqual([]);

      sink.setWebhookUp(false);
      const lost = await submitHomeLead(
        form({ name: "Fay Back", zipCode: "30030", email: "fay2@example.com" }),
        context(),
      );
      expect(lost).toMatchObject({ ok: true, outcome: "not-saved" });
      expect(lost.toast).toMatchObject({
        title: "Form submitted",
        description: "We'll be in touch soon to schedule your consultation.",
      });
    } finally {
      await database.db.execute(sql`drop trigger refuse_lead on leads`);
    }
  });
});
