import type { APIRequestContext } from "@playwright/test";
import { eq } from "drizzle-orm";
import { appointments, introCalls, leadEntries, serviceRequests, user } from "~/db/schema";
import { createServiceRequest } from "../../server/seed/factories";
import { BASE_URL } from "../support/ports";
import {
  createCustomer,
  createEmployee,
  e2eDb,
  expect,
  PASSWORD,
  sink,
  signIn,
  test,
  uniqueEmail,
} from "./fixtures";

/*
 * Hostile posts straight at the real actions, past every browser check: NUL and other control
 * characters (PostgreSQL cannot store NUL), a field sent twice, an unknown intent, 60,000
 * characters, missing fields. Every answer is a refusal a person can read (never a 500, never
 * Zod's own wording), and the database is left as it was. The rules themselves are checked for
 * every schema by app/lib/form-schemas.property.test.ts; this is the routes' side.
 */

const UNUSUAL = "Please remove the unusual characters from this field";
const HUGE = "x".repeat(60_000);
const ZOD_WORDING = /Invalid input|expected string|received (array|undefined)|Too (big|small):/;

type Answer = { status: number; text: string };

/** A same-origin urlencoded post, built by hand so that a name can repeat. */
async function post(
  request: APIRequestContext,
  url: string,
  fields: [string, string][],
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await request.post(url, {
    headers: {
      origin: BASE_URL,
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    data: new URLSearchParams(fields).toString(),
  });
  return { status: response.status(), text: await response.text() };
}

/** Refused (4xx, not a crash) with these words, and none of Zod's. */
function expectRefused(answer: Answer, message: string, label: string) {
  const excerpt = `${label}: ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, excerpt).toBeGreaterThanOrEqual(400);
  expect(answer.status, excerpt).toBeLessThan(500);
  expect(answer.text, excerpt).toContain(message);
  expect(answer.text, excerpt).not.toMatch(ZOD_WORDING);
}

const JSON_ACCEPT = { accept: "application/json" };

test("home and city lead forms: refused clearly, nothing stored or sent on", async ({
  request,
}) => {
  const email = uniqueEmail("hostile-lead");
  const home = (fields: [string, string][]) => post(request, "/?index", fields);
  const city = (fields: [string, string][]) => post(request, "/brookhaven-handyman", fields);
  const good = { name: "Casey Member", zipCode: "30303", phone: "404-555-0100" };

  const cases: [string, Promise<Answer>, string][] = [
    [
      "home: NUL in the name",
      home([
        ["name", "Casey\u0000Member"],
        ["zipCode", good.zipCode],
        ["email", email],
      ]),
      "Name contains invalid characters",
    ],
    [
      "home: control character in the e-mail",
      home([
        ["name", good.name],
        ["zipCode", good.zipCode],
        ["email", `${email}\u0007`],
      ]),
      "Please enter a valid email address",
    ],
    [
      "home: the name sent twice",
      home([
        ["name", good.name],
        ["name", "Someone Else"],
        ["zipCode", good.zipCode],
        ["email", email],
      ]),
      "Name is required",
    ],
    [
      "home: 60,000 characters of e-mail",
      home([
        ["name", good.name],
        ["zipCode", good.zipCode],
        ["email", `a@${"a.".repeat(30_000)}@`],
      ]),
      "Please enter a valid email address",
    ],
    ["home: no fields at all", home([]), "Name is required"],
    [
      "city: NUL in the message",
      city([
        ["name", good.name],
        ["phone", good.phone],
        ["email", email],
        ["message", "Two doors\u0000 stick"],
      ]),
      UNUSUAL,
    ],
    [
      "city: control character in the phone",
      city([
        ["name", good.name],
        ["phone", "404\u001b555"],
        ["email", email],
      ]),
      UNUSUAL,
    ],
    [
      "city: 60,000 characters of message",
      city([
        ["name", good.name],
        ["phone", good.phone],
        ["email", email],
        ["message", HUGE],
      ]),
      "Message must be less than 2000 characters",
    ],
    [
      "city: the e-mail sent twice",
      city([
        ["name", good.name],
        ["phone", good.phone],
        ["email", email],
        ["email", uniqueEmail("other")],
      ]),
      "Email Address is required",
    ],
    ["city: no fields at all", city([]), "Full Name is required"],
  ];
  for (const [label, answer, message] of cases) expectRefused(await answer, message, label);

  expect(await e2eDb().select().from(leadEntries).where(eq(leadEntries.email, email))).toEqual([]);
  expect(await e2eDb().select().from(leadEntries).where(eq(leadEntries.name, good.name))).toEqual(
    [],
  );
  const calls = await sink.webhookCalls();
  expect(calls.filter((call) => JSON.stringify(call.body).includes(email))).toEqual([]);

  // Tabs and line breaks are ordinary text in the message: accepted.
  const accepted = await city([
    ["name", good.name],
    ["phone", good.phone],
    ["email", email],
    ["message", "Front door sticks.\r\n\tBack door too."],
  ]);
  expect(accepted.status).toBe(200);
  const [lead] = await e2eDb().select().from(leadEntries).where(eq(leadEntries.email, email));
  expect(lead.message).toBe("Front door sticks.\r\n\tBack door too.");
});

test("intro-call booking: refused clearly, nothing booked", async ({ request }) => {
  const email = uniqueEmail("hostile-call");
  const base: [string, string][] = [
    ["name", "Casey Member"],
    ["email", email],
    ["phone", "404-555-0100"],
  ];
  const time: [string, string] = ["startsAt", "2030-01-01T15:00:00.000Z"];
  const cases: [string, [string, string][], string][] = [
    [
      "NUL in the phone",
      [...base.slice(0, 2), ["phone", "404\u0000555\u00000100"], time],
      "Please enter a valid phone number",
    ],
    ["a time that is no time", [...base, ["startsAt", HUGE]], "Please choose a time"],
    ["the time sent twice", [...base, time, ["startsAt", "x"]], "Please choose a time"],
    [
      "control character in the name",
      [["name", "Casey\u0001"], ...base.slice(1), time],
      "Name contains invalid characters",
    ],
    ["no fields at all", [], "Please choose a time"],
  ];
  for (const [label, fields, message] of cases)
    expectRefused(await post(request, "/book-call", fields), message, label);
  expect(await e2eDb().select().from(introCalls).where(eq(introCalls.email, email))).toEqual([]);
});

test("sign-up and sign-in, on /auth and on /api/auth: refused clearly, no account made", async ({
  request,
}) => {
  const email = uniqueEmail("hostile-auth");
  const signUp: [string, string][] = [
    ["intent", "sign-up"],
    ["firstName", "Casey"],
    ["lastName", "Member"],
    ["email", email],
    ["password", PASSWORD],
  ];
  const replace = (name: string, value: string) =>
    signUp.map(([key, old]) => [key, key === name ? value : old] as [string, string]);
  const page: [string, [string, string][], string][] = [
    [
      "NUL in the first name",
      replace("firstName", "Ca\u0000sey"),
      "Name contains invalid characters",
    ],
    [
      "control character in the e-mail",
      replace("email", `\u0007${email}`),
      "Please enter a valid email address",
    ],
    [
      "60,000 characters of e-mail",
      replace("email", `a@${"a.".repeat(30_000)}@`),
      "Please enter a valid email address",
    ],
    ["the last name sent twice", [...signUp, ["lastName", "Other"]], "Name is required"],
    ["an unknown intent", replace("intent", "make-me-admin"), "Please choose one of the options"],
    [
      "sign-in with NUL in the e-mail",
      [
        ["intent", "sign-in"],
        ["email", `\u0000${email}`],
        ["password", "x"],
      ],
      "Please enter a valid email address",
    ],
    [
      "sign-in without a password",
      [
        ["intent", "sign-in"],
        ["email", email],
      ],
      "Please enter your password",
    ],
    [
      "reset with a NUL token",
      [
        ["intent", "reset-password"],
        ["token", "abc\u0000"],
        ["password", PASSWORD],
      ],
      "This reset link is not valid",
    ],
  ];
  for (const [label, fields, message] of page)
    expectRefused(await post(request, "/auth", fields), message, `/auth ${label}`);

  const api = async (path: string, data: unknown) => {
    const response = await request.post(`/api/auth/${path}`, {
      headers: { origin: BASE_URL },
      data,
    });
    return { status: response.status(), text: await response.text() };
  };
  const body = { firstName: "Casey", lastName: "Member", email, password: PASSWORD };
  expectRefused(
    await api("sign-up/email", { ...body, email: `${email}\u0000` }),
    UNUSUAL,
    "API sign-up NUL",
  );
  expectRefused(
    await api("sign-up/email", { ...body, firstName: ["Casey", "Other"] }),
    "Name is required",
    "API sign-up list",
  );
  expectRefused(
    await api("sign-up/email", { ...body, lastName: HUGE }),
    "Name must be less than 50 characters",
    "API sign-up huge",
  );
  expectRefused(
    await api("sign-in/email", { email: `a@${"a.".repeat(30_000)}@`, password: "x" }),
    "Please enter a valid email address",
    "API sign-in huge e-mail",
  );
  expectRefused(
    await api("sign-in/email", { email: { $ne: "" }, password: "x" }),
    "Please enter a valid email address",
    "API sign-in object e-mail",
  );
  expectRefused(
    await api("request-password-reset", { email: `${email}\u0000`, redirectTo: "/auth" }),
    UNUSUAL,
    "API reset NUL",
  );
  const link = await request.get(`/api/auth/verify-email?token=abc%00def&callbackURL=/dashboard`);
  expectRefused(
    { status: link.status(), text: await link.text() },
    "The address contains characters that are not allowed.",
    "API verify-email NUL",
  );

  expect(await e2eDb().select().from(user).where(eq(user.email, email))).toEqual([]);
});

test("a customer's service requests: create and edit refused clearly, nothing changed", async ({
  page,
}) => {
  const customer = await createCustomer();
  const existing = await createServiceRequest(
    e2eDb(),
    { id: customer.homeId!, customerId: customer.id },
    { title: "Door sticks", description: "Front door" },
  );
  await signIn(page, customer);
  const mine = () =>
    e2eDb().select().from(serviceRequests).where(eq(serviceRequests.customerId, customer.id));
  const before = await mine();

  const cases: [string, [string, string][], string][] = [
    ["NUL in the title", [["title", "Leak\u0000"]], UNUSUAL],
    [
      "control character in the description",
      [
        ["title", "Leak"],
        ["description", "Under\u0008 the sink"],
      ],
      UNUSUAL,
    ],
    [
      "60,000 characters of description",
      [
        ["title", "Leak"],
        ["description", HUGE],
      ],
      "Description must be at most 5000 characters",
    ],
    [
      "the title sent twice",
      [
        ["title", "Leak"],
        ["title", "Other"],
      ],
      "Title is required",
    ],
    [
      "a priority that is not one",
      [
        ["title", "Leak"],
        ["priority", "urgent"],
      ],
      "Choose next or later",
    ],
    ["no fields at all", [], "Title is required"],
  ];
  for (const [label, fields, message] of cases) {
    expectRefused(
      await post(page.request, "/dashboard/requests", fields, JSON_ACCEPT),
      message,
      `create: ${label}`,
    );
    expectRefused(
      await post(
        page.request,
        `/dashboard/requests/${existing.id}`,
        [["intent", "update"], ...fields],
        JSON_ACCEPT,
      ),
      message,
      `edit: ${label}`,
    );
  }
  const unknown = await post(
    page.request,
    `/dashboard/requests/${existing.id}`,
    [["intent", "steal"]],
    JSON_ACCEPT,
  );
  expectRefused(unknown, "update-failed", "unknown intent");

  expect(await mine()).toEqual(before);
});

test("an employee's notes, status and new appointment: refused clearly, nothing changed", async ({
  page,
}) => {
  const customer = await createCustomer();
  const request = await createServiceRequest(
    e2eDb(),
    { id: customer.homeId!, customerId: customer.id },
    { title: "Door sticks", employeeNotes: "Call first" },
  );
  await signIn(page, await createEmployee());
  const row = async () =>
    (await e2eDb().select().from(serviceRequests).where(eq(serviceRequests.id, request.id)))[0];
  const before = await row();

  const url = `/employee/requests/${request.id}`;
  const cases: [string, [string, string][], string][] = [
    [
      "NUL in the notes",
      [
        ["intent", "notes"],
        ["notes", "Bring\u0000 a ladder"],
      ],
      UNUSUAL,
    ],
    [
      "60,000 characters of notes",
      [
        ["intent", "notes"],
        ["notes", HUGE],
      ],
      "Notes must be at most 5000 characters",
    ],
    [
      "the notes sent twice",
      [
        ["intent", "notes"],
        ["notes", "a"],
        ["notes", "b"],
      ],
      "Please enter this as text",
    ],
    [
      "a status that is not one",
      [
        ["intent", "status"],
        ["status", "paid"],
      ],
      "Please choose one of the options",
    ],
    [
      "the status sent twice",
      [
        ["intent", "status"],
        ["status", "new"],
        ["status", "complete"],
      ],
      "Please choose one of the options",
    ],
    ["an unknown intent", [["intent", "delete"]], "Unknown action"],
  ];
  for (const [label, fields, message] of cases)
    expectRefused(await post(page.request, url, fields, JSON_ACCEPT), message, label);
  expect(await row()).toEqual(before);

  const tomorrow = new Date(Date.now() + 2 * 24 * 60 * 60_000).toISOString().slice(0, 10);
  const appointment: [string, string][] = [
    ["customerId", customer.id],
    ["homeId", customer.homeId!],
    ["scheduledDate", tomorrow],
    ["startTime", "09:00"],
    ["endTime", "10:00"],
    ["tasks[0].description", "Fix the door"],
  ];
  const replace = (name: string, value: string) =>
    appointment.map(([key, old]) => [key, key === name ? value : old] as [string, string]);
  const create: [string, [string, string][], string][] = [
    ["NUL in a task", replace("tasks[0].description", "Fix\u0000"), UNUSUAL],
    [
      "NUL in the customer",
      replace("customerId", `${customer.id}\u0000`),
      "Please select a customer and property",
    ],
    [
      "NUL in the employee",
      [...appointment, ["assignedEmployeeId", "x\u0000"]],
      "The chosen employee does not exist",
    ],
    [
      "60,000 characters of notes",
      [...appointment, ["notes", HUGE]],
      "Notes must be at most 2000 characters",
    ],
    ["the date sent twice", [...appointment, ["scheduledDate", tomorrow]], "Please choose a date"],
    ["no fields at all", [], "Please select a customer and property"],
  ];
  for (const [label, fields, message] of create)
    expectRefused(
      await post(page.request, "/employee/appointments", fields, JSON_ACCEPT),
      message,
      `appointment: ${label}`,
    );
  expect(
    await e2eDb().select().from(appointments).where(eq(appointments.customerId, customer.id)),
  ).toEqual([]);
});
