/**
 * Test receivers for what the product sends out: a real SMTP server (smtp-server) capturing
 * every e-mail, and an HTTP receiver for the lead webhook that a test can switch off to
 * simulate an outage. Both are inspected over a small JSON API:
 *   GET  /mail?to=ADDRESS           captured messages (raw and parsed text)
 *   GET  /webhook/calls             webhook deliveries received (while up)
 *   POST /webhook/down, /webhook/up switch the webhook receiver off (503) and on
 *   POST /reset                     forget everything
 * In-process users can also take the SMTP receiver off the network (connections refused) and
 * slow the webhook receiver down (fault tests).
 */
import http from "node:http";
import { answerTwilio, E2E_TWILIO, type StandInText } from "./twilio-stand-in";
import { createStripeState, E2E_STRIPE } from "./stripe-stand-in";
import { SMTPServer } from "smtp-server";

export type CapturedMail = {
  id: number;
  from: string;
  to: string[];
  raw: string;
  subject: string;
  text: string;
  /** The Message-ID header: a re-sent message carries the same one. */
  messageId: string;
  receivedAt: string;
};
export type WebhookCall = {
  id: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  receivedAt: string;
};

/** Quoted-printable to text: the =XX escapes are UTF-8 bytes, not characters. */
function decodeQuotedPrintable(input: string) {
  const bytes: number[] = [];
  const joined = input.replace(/=\r?\n/g, "");
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === "=" ? /^[0-9A-F]{2}$/i.exec(joined.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(Number.parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i], "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Extracts the subject and the text/plain part of a raw message (enough for tests). */
export function parseMail(raw: string) {
  const subjectLine = /^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1] ?? "";
  const subject = subjectLine
    .replace(/\r?\n[ \t]/g, " ")
    // Whitespace between two encoded words is not part of the text (RFC 2047).
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([QB])\?(.*?)\?=/gi, (_, encoding: string, s: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(s, "base64").toString("utf8")
        : decodeQuotedPrintable(s.replace(/_/g, " ")),
    );
  let text = raw;
  const plain = /Content-Type: text\/plain[\s\S]*?\r?\n\r?\n([\s\S]*?)(?:\r?\n--|$)/i.exec(raw);
  if (plain) {
    const headerBlock = raw.slice(0, raw.indexOf(plain[1]));
    const encoding = /Content-Transfer-Encoding: ([\w-]+)(?![\s\S]*Content-Type)/i
      .exec(headerBlock)?.[1]
      ?.toLowerCase();
    text = plain[1];
    if (encoding === "quoted-printable") text = decodeQuotedPrintable(text);
    else if (encoding === "base64")
      text = Buffer.from(text.replace(/\s+/g, ""), "base64").toString("utf8");
  }
  const messageId = /^Message-ID:\s*(.*)$/im.exec(raw)?.[1]?.trim() ?? "";
  return { subject, text, messageId };
}

export async function startSink(options: { smtpPort: number; httpPort: number }) {
  const mails: CapturedMail[] = [];
  const calls: WebhookCall[] = [];
  let webhookUp = true;
  let nextId = 1;
  let delayMs = 0;

  function createSmtp() {
    return new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      // A reverse DNS lookup per connection costs ~100 ms here, for nothing.
      disableReverseLookup: true,
      // Closing (or "going down") cuts open connections at once, as a crash would.
      closeTimeout: 50,
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const parsed = parseMail(raw);
          const accept = () => {
            mails.push({
              id: nextId++,
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              raw,
              ...parsed,
              receivedAt: new Date().toISOString(),
            });
            callback();
          };
          if (delayMs) setTimeout(accept, delayMs);
          else accept();
        });
      },
    });
  }
  function listenSmtp() {
    const server = createSmtp();
    // A client that dies mid-session (a killed server process) resets its connection; a real
    // mail server logs that and carries on, and so does this one.
    server.on("error", () => {});
    return new Promise<SMTPServer>((resolve) =>
      server.listen(options.smtpPort, "127.0.0.1", () => resolve(server)),
    );
  }
  let smtp: SMTPServer | undefined = await listenSmtp();

  const texts: StandInText[] = [];
  // The stand-in of Stripe's API (the e2e server's STRIPE_API_URL), and Stripe's side of a
  // Checkout paid or a card declined for the tests (/stripe/...: each answers a signed event).
  const stripe = createStripeState(E2E_STRIPE);
  stripe.setBase(`http://127.0.0.1:${options.httpPort}`);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sink");
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      // The stand-in of Twilio's Messages endpoint (the e2e server's TWILIO_API_URL).
      if (answerTwilio(E2E_TWILIO, texts, req, Buffer.concat(chunks), res)) return;
      if (url.pathname.startsWith("/v1/")) {
        const [status, body] = stripe.answer(req, Buffer.concat(chunks).toString("utf8"));
        return send(status, body);
      }
      if (req.method === "GET" && url.pathname.startsWith("/pay/")) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end("<!doctype html><title>Checkout stand-in</title><h1>Pay</h1>");
      }
      if (req.method === "POST" && url.pathname === "/stripe/complete") {
        const done = stripe.completeCheckout(url.searchParams.get("session") ?? "");
        return send(200, {
          subscriptionId: done.subscriptionId ?? null,
          event: stripe.event("checkout.session.completed", done.session),
        });
      }
      if (req.method === "POST" && url.pathname === "/stripe/decline") {
        const invoice = stripe.nextInvoice(
          url.searchParams.get("subscription") ?? "",
          false,
          Number(url.searchParams.get("amount") ?? 0),
        );
        return send(200, { event: stripe.event("invoice.payment_failed", invoice) });
      }
      if (req.method === "GET" && url.pathname === "/stripe/refunds") {
        return send(200, { refunds: stripe.refunds, calls: stripe.calls });
      }
      if (req.method === "GET" && url.pathname === "/health") return send(200, { ok: true });
      if (req.method === "GET" && url.pathname === "/texts") return send(200, texts);
      if (req.method === "GET" && url.pathname === "/mail") {
        const to = url.searchParams.get("to")?.toLowerCase();
        return send(200, to ? mails.filter((m) => m.to.includes(to)) : mails);
      }
      if (req.method === "GET" && url.pathname === "/webhook/calls") return send(200, calls);
      if (req.method === "POST" && url.pathname === "/webhook/down") {
        webhookUp = false;
        return send(200, { up: false });
      }
      if (req.method === "POST" && url.pathname === "/webhook/up") {
        webhookUp = true;
        return send(200, { up: true });
      }
      if (req.method === "POST" && url.pathname === "/reset") {
        mails.length = 0;
        calls.length = 0;
        texts.length = 0;
        webhookUp = true;
        return send(200, { ok: true });
      }
      if (req.method === "POST" && url.pathname === "/webhook") {
        if (!webhookUp) return send(503, { error: "down" });
        if (delayMs) {
          setTimeout(() => {
            record();
            send(200, { ok: true });
          }, delayMs);
          return;
        }
        record();
        return send(200, { ok: true });
      }
      send(404, { error: "not found" });
    });
    function record() {
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = Buffer.concat(chunks).toString("utf8");
      }
      calls.push({
        id: nextId++,
        body,
        headers: req.headers,
        receivedAt: new Date().toISOString(),
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(options.httpPort, "127.0.0.1", resolve));

  return {
    mails,
    calls,
    setWebhookUp(up: boolean) {
      webhookUp = up;
    },
    /** Each webhook call and e-mail is accepted this much later (slow receivers). */
    setDelay(ms: number) {
      delayMs = ms;
    },
    /** Down: the SMTP port refuses connections. Up: listening again on the same port. */
    async setSmtpUp(up: boolean) {
      if (up && !smtp) {
        smtp = await listenSmtp();
      } else if (!up && smtp) {
        const closing = smtp;
        smtp = undefined;
        await new Promise<void>((resolve) => closing.close(() => resolve()));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (smtp) await new Promise<void>((resolve) => smtp!.close(() => resolve()));
    },
  };
}

// Run as a process (Playwright's webServer): ports from the environment.
if (import.meta.url === `file://${process.argv[1]}`) {
  const smtpPort = Number(process.env.SINK_SMTP_PORT);
  const httpPort = Number(process.env.SINK_HTTP_PORT);
  await startSink({ smtpPort, httpPort });
  console.log(`sink: smtp ${smtpPort}, http ${httpPort}`);
}
