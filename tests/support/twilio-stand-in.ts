import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/*
 * A local stand-in for the one Twilio endpoint the product calls: POST
 * /2010-04-01/Accounts/{AccountSid}/Messages.json (create a message), with HTTP Basic auth by the
 * account SID and auth token, answering as Twilio does (201 with the message resource; 400 with
 * Twilio's error body for a number it refuses; 401 for wrong credentials). The SDK is pointed at
 * it by TWILIO_API_URL; its own code builds and sends the request. The e2e sink serves it too.
 */

export type StandInText = { sid: string; to: string; from: string; body: string; at: string };

/** Twilio's test number that is never a valid mobile ("21211: invalid 'To' number"). */
export const INVALID_NUMBER = "+15005550001";

/** The credentials the e2e server and the sink share. */
export const E2E_TWILIO = {
  accountSid: "AC0000000000000000000000000000e2e0",
  authToken: "e2e-twilio-auth-token",
  from: "+14045550100",
};

/**
 * Answers a request to the Messages endpoint, recording each text created. False when the path
 * is not Twilio's (the caller answers it).
 */
export function answerTwilio(
  options: { accountSid: string; authToken: string },
  texts: StandInText[],
  req: http.IncomingMessage,
  body: Buffer,
  res: http.ServerResponse,
) {
  if (!(req.url ?? "").startsWith("/2010-04-01/")) return false;
  const answer = (status: number, payload: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(payload));
  };
  const expected = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString("base64")}`;
  if (req.headers.authorization !== expected) {
    answer(401, { code: 20003, message: "Authenticate", status: 401 });
    return true;
  }
  const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(req.url ?? "");
  if (req.method !== "POST" || !match || match[1] !== options.accountSid) {
    answer(404, { code: 20404, message: "Not found", status: 404 });
    return true;
  }
  const form = new URLSearchParams(body.toString("utf8"));
  const to = form.get("To") ?? "";
  if (to === INVALID_NUMBER) {
    answer(400, {
      code: 21211,
      message: `The 'To' number ${to} is not a valid phone number.`,
      more_info: "https://www.twilio.com/docs/errors/21211",
      status: 400,
    });
    return true;
  }
  const sid = `SM${crypto.randomBytes(16).toString("hex")}`;
  const text = {
    sid,
    to,
    from: form.get("From") ?? "",
    body: form.get("Body") ?? "",
    at: new Date().toISOString(),
  };
  texts.push(text);
  answer(201, {
    sid,
    account_sid: options.accountSid,
    to,
    from: text.from,
    body: text.body,
    status: "queued",
    num_segments: "1",
    direction: "outbound-api",
    date_created: new Date().toUTCString(),
    uri: `/2010-04-01/Accounts/${options.accountSid}/Messages/${sid}.json`,
  });
  return true;
}

export async function startTwilioStandIn(options: { accountSid: string; authToken: string }) {
  const texts: StandInText[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (!answerTwilio(options, texts, req, Buffer.concat(chunks), res)) {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    texts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
