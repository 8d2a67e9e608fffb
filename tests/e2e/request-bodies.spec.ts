import net from "node:net";
import { eq } from "drizzle-orm";
import { leadEntries, requestPhotos } from "~/db/schema";
import { createServiceRequest } from "../../server/seed/factories";
import { BASE_URL, E2E_PORT } from "../support/ports";
import {
  createCustomer,
  createEmployee,
  e2eDb,
  expect,
  signIn,
  test,
  uniqueEmail,
} from "./fixtures";

/*
 * Bodies the server refuses before any route parses them: past the limit (declared, chunked,
 * or streaming past it), not a form, not parseable. Each answer is a 4xx with a message, the
 * server stays responsive, nothing is stored.
 */

type RawAnswer = { status: number; head: string; body: string; ms: number };

/**
 * One HTTP/1.1 request over a socket, written as given (a lying Content-Length, a chunked body
 * fed slowly): resolves with the status line's code when the answer has arrived, however much
 * of the body the client still meant to send.
 */
function raw(head: string, feed: (socket: net.Socket) => void): Promise<RawAnswer> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(E2E_PORT, "127.0.0.1");
    let received = "";
    let settled = false;
    // The answer as far as it came; a client still sending may see the connection close (EPIPE,
    // a reset) once the server has answered and stopped reading: that is the refusal working.
    const settle = (error?: Error) => {
      if (settled) return;
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) {
        if (error) {
          settled = true;
          reject(new Error(`no answer (${error.message}): ${received.slice(0, 200)}`));
        }
        return;
      }
      const length = Number(/content-length: (\d+)/i.exec(received.slice(0, end))?.[1] ?? NaN);
      if (!error && Number.isFinite(length) && received.length - end - 4 < length) return;
      settled = true;
      socket.destroy();
      resolve({
        status: Number(received.slice(9, 12)),
        head: received.slice(0, end),
        body: received.slice(end + 4),
        ms: Date.now() - started,
      });
    };
    socket.on("connect", () => {
      socket.write(head);
      feed(socket);
    });
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      settle();
    });
    socket.on("error", (error) => settle(error));
    socket.on("close", () => settle(new Error("closed")));
  });
}

function headers(path: string, lines: string[]) {
  return [
    `POST ${path} HTTP/1.1`,
    `Host: localhost:${E2E_PORT}`,
    `Origin: ${BASE_URL}`,
    ...lines,
    "",
    "",
  ].join("\r\n");
}

/** Writes `total` bytes of a form field in 64 KB pieces, as fast as the socket takes them. */
function pour(socket: net.Socket, total: number, chunked: boolean) {
  const piece = Buffer.alloc(64 * 1024, "a");
  let sent = 0;
  const next = () => {
    while (sent < total && !socket.destroyed) {
      const data = chunked
        ? Buffer.concat([
            Buffer.from(`${piece.length.toString(16)}\r\n`),
            piece,
            Buffer.from("\r\n"),
          ])
        : piece;
      sent += piece.length;
      if (!socket.write(data, () => {})) {
        socket.once("drain", next);
        return;
      }
    }
  };
  socket.write(chunked ? "8\r\nmessage=\r\n" : "message=");
  next();
}

test("a body past the form limit is refused with 413, declared or chunked, before it is read", async () => {
  const declared = await raw(
    headers("/?index", [
      "Content-Type: application/x-www-form-urlencoded",
      `Content-Length: ${200 * 1024 * 1024}`,
    ]),
    (socket) => socket.write("message=hello"),
  );
  expect(declared.status).toBe(413);
  expect(declared.body).toContain("That request is too large to accept.");
  expect(declared.head).toMatch(/connection: close/i);

  // No Content-Length: chunked, 200 MB if the server would read it. It stops at the limit.
  const chunked = await raw(
    headers("/?index", [
      "Content-Type: application/x-www-form-urlencoded",
      "Transfer-Encoding: chunked",
    ]),
    (socket) => pour(socket, 200 * 1024 * 1024, true),
  );
  expect(chunked.status).toBe(413);

  // The photo upload has its own, larger limit: a declared length past it is refused at once.
  const upload = await raw(
    headers("/dashboard/requests", [
      "Content-Type: multipart/form-data; boundary=x",
      `Content-Length: ${1024 * 1024 * 1024}`,
    ]),
    () => {},
  );
  expect(upload.status).toBe(413);

  // The API answers in JSON.
  const api = await raw(
    headers("/api/auth/sign-in/email", [
      "Content-Type: application/json",
      `Content-Length: ${10 * 1024 * 1024}`,
    ]),
    () => {},
  );
  expect(api.status).toBe(413);
  expect(JSON.parse(api.body)).toMatchObject({ message: "That request is too large to accept." });

  // The server is still answering at once.
  const health = await fetch(`${BASE_URL}/healthz`);
  expect(health.status).toBe(200);
});

const MB = 1024 * 1024;

/**
 * Writes one photo part of `total` bytes as a chunked multipart body, as fast as the socket
 * takes it; `progress.sent` is how much the client had handed to the socket so far.
 */
function pourPhoto(socket: net.Socket, total: number, progress: { sent: number }) {
  const chunk = (data: Buffer) =>
    Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from("\r\n")]);
  socket.write(
    chunk(
      Buffer.from(
        '--x\r\nContent-Disposition: form-data; name="photo"; filename="huge.jpg"\r\nContent-Type: image/jpeg\r\n\r\n',
      ),
    ),
  );
  const piece = chunk(Buffer.alloc(64 * 1024, 0xff));
  const next = () => {
    while (progress.sent < total && !socket.destroyed) {
      progress.sent += 64 * 1024;
      if (!socket.write(piece, () => {})) {
        socket.once("drain", next);
        return;
      }
    }
  };
  next();
}

test("a photo upload past its route's limit is refused from its Content-Length, and a chunked one is read no further than the limit", async ({
  page,
}) => {
  const customer = await createCustomer();
  const request = await createServiceRequest(
    e2eDb(),
    { id: customer.homeId!, customerId: customer.id },
    { title: "Porch steps" },
  );
  await signIn(page, customer);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const path = `/dashboard/requests/${request.id}/photos`;
  const upload = (lines: string[]) =>
    headers(path, [...lines, `Cookie: ${cookie}`, "Accept: application/json"]);

  // 200 MB declared and not a byte sent: the answer cannot have waited for the body. (The
  // dialogs post one photo per request: the limit is one photo and its form, not 20 photos.)
  const declared = await raw(
    upload(["Content-Type: multipart/form-data; boundary=x", `Content-Length: ${200 * MB}`]),
    () => {},
  );
  expect(declared.status).toBe(413);
  expect(JSON.parse(declared.body)).toMatchObject({
    message: "Some files were too large (max 10MB per file)",
  });
  expect(declared.head).toMatch(/connection: close/i);

  // Chunked, 200 MB if the server read on: it answers at the limit (10 MB and its form), while
  // most of the body is still unsent. Before, it read all 200 MB, then refused the photo.
  const progress = { sent: 0 };
  const chunked = await raw(
    upload(["Content-Type: multipart/form-data; boundary=x", "Transfer-Encoding: chunked"]),
    (socket) => pourPhoto(socket, 200 * MB, progress),
  );
  expect(chunked.status).toBe(413);
  expect(progress.sent).toBeLessThan(64 * MB);
  const stored = await e2eDb()
    .select()
    .from(requestPhotos)
    .where(eq(requestPhotos.requestId, request.id));
  expect(stored).toEqual([]);

  // The profile photo's limit is its own: 5 MB and its form, with the form's own message.
  const profile = await raw(
    headers("/employee/profile-photo", [
      "Content-Type: multipart/form-data; boundary=x",
      `Content-Length: ${6 * MB}`,
      "Accept: application/json",
    ]),
    () => {},
  );
  expect(profile.status).toBe(413);
  expect(JSON.parse(profile.body)).toMatchObject({ message: "Photo must be smaller than 5MB" });

  // A photo at its limit still goes through to the route (which refuses it for its size only
  // past 10 MB): the limit is not tighter than the form.
  const atLimit = await page.request.post(path, {
    headers: { origin: BASE_URL, accept: "application/json" },
    multipart: {
      photo: { name: "big.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(10 * MB + 1, 0) },
    },
  });
  expect(atLimit.status()).toBe(413);
  expect(await atLimit.json()).toMatchObject({
    skipped: [{ filename: "big.jpg", reason: "too-large" }],
  });
  expect((await fetch(`${BASE_URL}/healthz`)).status).toBe(200);
});

test("every route that takes files refuses a declared body over its limit before reading a byte, signed in", async ({
  page,
}) => {
  const customer = await createCustomer();
  const request = await createServiceRequest(
    e2eDb(),
    { id: customer.homeId!, customerId: customer.id },
    { title: "Garage shelves" },
  );
  await signIn(page, customer);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const declared = (path: string, bytes: number) =>
    raw(
      headers(path, [
        "Content-Type: multipart/form-data; boundary=x",
        `Content-Length: ${bytes}`,
        `Cookie: ${cookie}`,
        "Accept: application/json",
      ]),
      () => {},
    );
  // A request's form (new or edited) takes its photos in all up to 100 MB: 200 MB declared is
  // refused at once, not read (before, it was under the 20-photos-at-10-MB limit and read).
  const tooMuch =
    "Photos sent together can total at most 100MB. Save with fewer photos, then add the rest to the request.";
  for (const path of ["/dashboard/requests", `/dashboard/requests/${request.id}`]) {
    const answer = await declared(path, 200 * MB);
    expect(answer.status, path).toBe(413);
    expect(JSON.parse(answer.body), path).toMatchObject({ message: tooMuch });
    expect(answer.ms, path).toBeLessThan(3_000);
  }
  // One photo per post: the request's 'Add photo', the handyman's 'Add photo' and 'Add part'
  // receipt on 'Today', the profile photo.
  for (const [path, message] of [
    [`/dashboard/requests/${request.id}/photos`, "Some files were too large (max 10MB per file)"],
    ["/employee/today", "Some files were too large (max 10MB per file)"],
    ["/employee/profile-photo", "Photo must be smaller than 5MB"],
  ]) {
    const answer = await declared(path!, 20 * MB);
    expect(answer.status, path).toBe(413);
    expect(JSON.parse(answer.body), path).toMatchObject({ message });
  }
  expect((await fetch(`${BASE_URL}/healthz`)).status).toBe(200);
});

test("a lying Content-Length never makes the server wait for bytes that do not come", async () => {
  const answer = await raw(
    headers("/?index", ["Content-Type: application/x-www-form-urlencoded", "Content-Length: 5000"]),
    (socket) => {
      socket.write("message=short");
      setTimeout(() => socket.end(), 200);
    },
  ).catch((error: Error) => ({ status: 0, error }));
  // Either a 400 or the connection simply closed; never a 5xx, and the server goes on.
  expect(answer.status === 0 || answer.status === 400).toBe(true);
  expect((await fetch(`${BASE_URL}/healthz`)).status).toBe(200);
});

const MALFORMED: [string, string, string, number][] = [
  ["JSON to a form action", "application/json", '{"name":"x"}', 415],
  ["text/plain", "text/plain", "name=Ann&email=a@example.com", 415],
  ["multipart without a boundary", "multipart/form-data", "name=x", 400],
  [
    "truncated multipart",
    "multipart/form-data; boundary=XyZ",
    '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nAnn',
    400,
  ],
];

const ACTIONS = [
  "/?index",
  "/dunwoody-handyman",
  "/book-call",
  "/auth",
  "/account",
  "/dashboard",
  "/employee",
  "/employee/appointments",
  "/auth.data",
];

test("malformed bodies to every kind of action are 400 or 415 with a message, never a 500", async ({
  page,
  browser,
}) => {
  const employeePage = await (await browser.newContext()).newPage();
  const failures: string[] = [];
  for (const path of ACTIONS) {
    for (const [label, type, body, status] of MALFORMED) {
      const response = await fetch(new URL(path, BASE_URL), {
        method: "POST",
        headers: { origin: BASE_URL, "content-type": type },
        body,
        redirect: "manual",
      });
      const text = await response.text();
      if (response.status !== status || !/form|request|JSON/i.test(text))
        failures.push(`${path} ${label}: ${response.status} ${text.slice(0, 120)}`);
    }
  }
  expect(failures).toEqual([]);

  // The photo uploads stream to their route, which checks who is asking first.
  const truncated = MALFORMED[3];
  await signIn(page, await createCustomer());
  const upload = await page.request.post("/dashboard/requests", {
    headers: { origin: BASE_URL, "content-type": truncated[1] },
    data: truncated[2],
  });
  expect(upload.status(), await upload.text()).toBe(400);
  await signIn(employeePage, await createEmployee());
  const photo = await employeePage.request.post("/employee/profile-photo", {
    headers: { origin: BASE_URL, "content-type": truncated[1] },
    data: truncated[2],
  });
  expect(photo.status(), await photo.text()).toBe(400);

  const api = await fetch(`${BASE_URL}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { origin: BASE_URL, "content-type": "application/json" },
    body: '{"email": "a@example.com", ',
  });
  expect(api.status).toBe(400);
  expect(await api.json()).toMatchObject({ message: expect.stringContaining("malformed") });
});

test("a lead refused for its body is not stored", async () => {
  const email = uniqueEmail("refused-body");
  const response = await fetch(`${BASE_URL}/?index`, {
    method: "POST",
    headers: { origin: BASE_URL, "content-type": "text/plain" },
    body: `firstName=Ann&lastName=Lee&email=${email}&phone=4045550100&zip=30305`,
  });
  expect(response.status).toBe(415);
  expect(await e2eDb().select().from(leadEntries).where(eq(leadEntries.email, email))).toEqual([]);
});

test("absurd query values and NUL bytes are refused at the edge or read as the first page", async ({
  page,
}) => {
  await signIn(page, await createEmployee());
  for (const query of ["apage=1e309", "apage=9999999999999999999999", "cpage=-1", "apage=0x10"]) {
    const response = await page.request.get(`/employee?${query}`);
    expect(response.status(), query).toBe(200);
  }
  for (const url of [
    "/employee/customer-options?customerId=%00",
    "/employee?q=%00",
    "/dashboard?spage=%01",
    "/%00",
    "/auth?token=a%00b",
  ]) {
    const response = await page.request.get(url);
    expect(response.status(), url).toBe(400);
    expect(await response.text(), url).toContain("characters that are not allowed");
  }
  const notAnId = await page.request.get("/employee/customer-options?customerId=not-an-id");
  expect(notAnId.status()).toBe(404);
});
