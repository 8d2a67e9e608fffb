import net from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outbox } from "~/db/schema";
import { resetEnvForTests } from "~/lib/env.server";
import { enqueue, processOutboxBatch } from "~/lib/outbox.server";
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

describe("the outbox delivers e-mail and webhooks, retrying until they succeed", () => {
  let database: TestDatabase;
  let sink: Awaited<ReturnType<typeof startSink>>;
  let httpPort: number;

  beforeAll(async () => {
    const smtpPort = await freePort();
    httpPort = await freePort();
    sink = await startSink({ smtpPort, httpPort });
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
    process.env.LEAD_WEBHOOK_URL = `http://127.0.0.1:${httpPort}/webhook`;
    process.env.OUTBOX_BASE_BACKOFF_MS = "0";
    process.env.OUTBOX_MAX_BACKOFF_MS = "0";
    resetEnvForTests();
    database = await useTestDatabase();
  });
  afterAll(async () => {
    await sink.close();
    await database.drop();
    delete process.env.SMTP_URL;
    delete process.env.LEAD_WEBHOOK_URL;
    resetEnvForTests();
  });
  beforeEach(async () => {
    sink.mails.length = 0;
    sink.calls.length = 0;
    sink.setWebhookUp(true);
    await database.db.delete(outbox);
  });

  it("sends an e-mail over real SMTP with text, HTML and an attachment", async () => {
    await enqueue(database.db, "email", {
      to: "member@example.com",
      subject: "Your appointment",
      text: "See you Tuesday.",
      html: "<p>See you Tuesday.</p>",
      attachments: [
        {
          filename: "visit.ics",
          content: "BEGIN:VCALENDAR\r\nEND:VCALENDAR",
          contentType: "text/calendar",
        },
      ],
    });
    expect(await processOutboxBatch()).toBe(1);
    expect(sink.mails).toHaveLength(1);
    expect(sink.mails[0].to).toEqual(["member@example.com"]);
    expect(sink.mails[0].subject).toBe("Your appointment");
    expect(sink.mails[0].raw).toContain("text/html");
    expect(sink.mails[0].raw).toContain("visit.ics");
    const [row] = await database.db.select().from(outbox);
    expect(row.deliveredAt).not.toBeNull();
    // Delivered items are never sent again.
    expect(await processOutboxBatch()).toBe(0);
    expect(sink.mails).toHaveLength(1);
  });

  it("keeps a webhook call while the receiver is down and delivers it once when it is back", async () => {
    sink.setWebhookUp(false);
    const id = await enqueue(database.db, "lead_webhook", {
      leadId: "lead-1",
      body: { name: "Ann Lee", email: "ann@example.com", formType: "contact" },
    });
    expect(await processOutboxBatch()).toBe(0);
    const [failed] = await database.db.select().from(outbox).where(eq(outbox.id, id));
    expect(failed.deliveredAt).toBeNull();
    expect(failed.attempts).toBe(1);
    expect(failed.lastError).toContain("503");

    sink.setWebhookUp(true);
    expect(await processOutboxBatch()).toBe(1);
    expect(await processOutboxBatch()).toBe(0);
    expect(sink.calls).toHaveLength(1);
    expect(sink.calls[0].body).toEqual({
      name: "Ann Lee",
      email: "ann@example.com",
      formType: "contact",
    });
    expect(sink.calls[0].headers["idempotency-key"]).toBe(id);
  });
});
