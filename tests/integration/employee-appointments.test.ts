import { parseWithZod } from "@conform-to/zod/v4";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import crypto from "node:crypto";
import {
  appointments,
  appointmentTasks,
  outbox,
  profiles,
  serviceRequests,
  user,
} from "~/db/schema";
import {
  AppointmentRejectedError,
  createAppointment,
} from "~/features/visits/staff-booking.server";
import { createAppointmentSchema } from "~/features/visits/staff-booking-schema";
import {
  CUSTOMER_PICKER_LIMIT,
  customerAppointmentOptions,
  findCustomerChoices,
  listCustomers,
} from "~/features/customers/queries.server";
import { businessToday } from "~/lib/business-calendar";
import type { OutboxPayloads } from "~/lib/outbox.server";
import { createHome, createServiceRequest, createUser } from "../../server/seed/factories";
import { business } from "~/lib/business.server";
import { parseCalendarFile } from "../support/icalendar";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox cascade`);
});

let seq = 0;
async function customer() {
  seq++;
  const account = await createUser(database.db, {
    email: `customer${seq}@example.com`,
    password: "x",
    firstName: "Maria",
    lastName: `Alvarez${"x".repeat(seq)}`,
  });
  const home = await createHome(database.db, account.id, { address: "418 Ponce de Leon Ave" });
  return { account, home };
}

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.append(key, value);
  return data;
}

const TODAY = "2026-11-21";

describe("the Create Appointment rules", () => {
  const parse = (values: Record<string, string>) => {
    const result = parseWithZod(form(values), { schema: createAppointmentSchema(TODAY) });
    return { ...result, error: "error" in result ? result.error : undefined };
  };
  const valid = {
    customerId: "user-1",
    homeId: "8f0e6d3c-5b1a-4c2d-9e8f-7a6b5c4d3e2f",
    scheduledDate: TODAY,
    startTime: "09:00",
    endTime: "10:30",
    "tasks[0].description": "  Fix the faucet  ",
    "tasks[1].description": "   ",
    "tasks[2].description": "Hang shelves",
    "tasks[2].serviceRequestId": "1f0e6d3c-5b1a-4c2d-9e8f-7a6b5c4d3e2f",
  };

  it("accepts a complete appointment, trimming tasks and dropping blank ones", () => {
    const result = parse(valid);
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value.tasks).toEqual([
      { description: "Fix the faucet" },
      { description: "Hang shelves", serviceRequestId: "1f0e6d3c-5b1a-4c2d-9e8f-7a6b5c4d3e2f" },
    ]);
    expect(result.value.assignedEmployeeId).toBeUndefined();
    expect(result.value.notes).toBeUndefined();
  });

  it("needs a customer and a property, with the spec's message", () => {
    const result = parse({ ...valid, customerId: "", homeId: "" });
    expect(result.error?.customerId).toEqual(["Please select a customer and property"]);
    expect(result.error?.homeId).toEqual(["Please select a customer and property"]);
  });

  it("refuses a date before today and an end that does not follow the start", () => {
    expect(parse({ ...valid, scheduledDate: "2026-11-20" }).error?.scheduledDate).toEqual([
      "The date cannot be earlier than today",
    ]);
    expect(parse({ ...valid, scheduledDate: "2026-02-30" }).error?.scheduledDate).toEqual([
      "Please choose a date",
    ]);
    expect(parse({ ...valid, endTime: "09:00" }).error?.endTime).toEqual([
      "The end time must be after the start time",
    ]);
    expect(parse({ ...valid, endTime: "08:00" }).error?.endTime).toEqual([
      "The end time must be after the start time",
    ]);
    expect(parse({ ...valid, startTime: "" }).error?.startTime).toEqual([
      "Please choose a start time",
    ]);
    expect(parse({ ...valid, endTime: "25:00" }).error?.endTime).toEqual([
      "Please choose an end time",
    ]);
  });

  it("needs at least one non-blank task", () => {
    const result = parse({
      ...valid,
      "tasks[0].description": "",
      "tasks[2].description": " ",
    });
    expect(result.error?.["tasks[0].description"]).toEqual(["Add at least one planned task"]);
  });

  it("knows today in Atlanta, not in UTC", () => {
    // 03:00 UTC on the 22nd is still the evening of the 21st in Atlanta.
    expect(businessToday(new Date("2026-11-22T03:00:00Z"))).toBe("2026-11-21");
  });
});

describe("createAppointment", () => {
  it("writes the appointment, its tasks and the customer's e-mail with the .ics together", async () => {
    const { account, home } = await customer();
    const staff = await createUser(database.db, {
      email: "staff@example.com",
      password: "x",
      firstName: "Dana",
      lastName: "Whitfield",
      isEmployee: true,
    });
    const request = await createServiceRequest(database.db, home, {
      title: "Fix the faucet",
      status: "reviewed",
    });
    const appointment = await createAppointment(
      {
        customerId: account.id,
        homeId: home.id,
        assignedEmployeeId: staff.id,
        scheduledDate: "2026-12-01",
        startTime: "09:00",
        endTime: "12:30",
        tasks: [
          { description: "Fix the faucet", serviceRequestId: request.id },
          { description: "Check the water heater" },
        ],
        notes: "Bring a cartridge",
      },
      staff.id,
    );
    const tasks = await database.db
      .select()
      .from(appointmentTasks)
      .where(eq(appointmentTasks.appointmentId, appointment.id));
    // Every task is a request of the member's (issue 40 item 2): the typed one became one.
    const typed = tasks.find((t) => t.taskDescription === "Check the water heater")!;
    expect(tasks.find((t) => t.taskDescription === "Fix the faucet")?.serviceRequestId).toBe(
      request.id,
    );
    expect(typed.serviceRequestId).not.toBeNull();
    const [typedRequest] = await database.db
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.id, typed.serviceRequestId!));
    expect(typedRequest).toMatchObject({
      customerId: account.id,
      homeId: home.id,
      title: "Check the water heater",
      status: "scheduled",
      priority: "next",
    });
    const [linked] = await database.db
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.id, request.id));
    expect(linked.status).toBe("scheduled");

    // The same e-mail as a visit the member booked (issue 40 item 9), sent now.
    const [mail] = await database.db
      .select()
      .from(outbox)
      .where(sql`${outbox.kind} = 'email' and ${outbox.nextAttemptAt} <= now()`);
    const payload = mail.payload as OutboxPayloads["email"];
    expect(payload.to).toBe(account.email);
    expect(payload.subject).toBe(
      "Your visit is booked: Tuesday, December 1, 2026, 9:00 AM to 12:30 PM",
    );
    expect(payload.text).toContain("When: Tuesday, December 1, 2026, 9:00 AM to 12:30 PM");
    expect(payload.text).toContain("Notes: Bring a cartridge");
    expect(payload.text).toContain("Your handyman: Dana Whitfield");
    expect(payload.attachments?.[0].filename).toBe("appointment-2026-12-01.ics");
    expect(payload.attachments?.[0].content).toContain("SUMMARY:Handyman Appointment");
    expect(payload.attachments?.[0].content).toContain(
      "LOCATION:418 Ponce de Leon Ave\\, Atlanta\\, GA",
    );
    // An invitation from the business to the customer, the visit's first version (a later move
    // or cancel carries the same UID and a higher SEQUENCE), as an iCalendar parser reads it.
    const event = parseCalendarFile(payload.attachments![0].content as string);
    expect(event).toMatchObject({
      uid: `appointment-${appointment.id}@peachtree-handyman`,
      method: "REQUEST",
      sequence: 0,
      summary: "Handyman Appointment",
      organizer: `mailto:${business().email}`.toLowerCase(),
    });
    expect(event.attendees.map((a) => a.address)).toEqual([`mailto:${account.email}`]);
    expect(payload.attachments?.[0].contentType).toContain("method=REQUEST");

    // The customer's list and the dialog's options reflect it.
    const { customers } = await listCustomers({ today: TODAY });
    expect(customers.find((c) => c.userId === account.id)).toMatchObject({
      openRequests: 0,
      nextAppointmentDate: "2026-12-01",
      nextAppointmentStart: "09:00:00",
    });
    // Both are on this upcoming visit: shown with its day, not offered again (item 3).
    expect(
      (await customerAppointmentOptions(account.id))?.openRequests.map((r) => r.onVisitDate),
    ).toEqual(["2026-12-01", "2026-12-01"]);
  });

  it("refuses someone else's home, a non-employee assignee and someone else's request", async () => {
    const { account, home } = await customer();
    const other = await customer();
    const otherRequest = await createServiceRequest(database.db, other.home, { title: "Theirs" });
    const base = {
      customerId: account.id,
      homeId: home.id,
      scheduledDate: "2026-12-01",
      startTime: "09:00",
      endTime: "10:00",
      tasks: [{ description: "Visit" }],
    };
    await expect(createAppointment({ ...base, homeId: other.home.id }, "x")).rejects.toThrow(
      "Please select a customer and property",
    );
    await expect(
      createAppointment({ ...base, assignedEmployeeId: other.account.id }, "x"),
    ).rejects.toBeInstanceOf(AppointmentRejectedError);
    await expect(
      createAppointment(
        { ...base, tasks: [{ description: "Theirs", serviceRequestId: otherRequest.id }] },
        "x",
      ),
    ).rejects.toThrow("A chosen task is not one of this customer's requests");
    expect(await database.db.select().from(appointments)).toEqual([]);
    expect(await database.db.select().from(outbox)).toEqual([]);
  });

  it("creates nothing when the tasks cannot be written", async () => {
    const { account, home } = await customer();
    // A database that refuses task rows (a full disk, a constraint added later...).
    await database.db.execute(sql`
      create or replace function refuse_tasks() returns trigger language plpgsql as $$
      begin raise exception 'tasks are refused'; end $$`);
    await database.db.execute(sql`
      create trigger refuse_tasks before insert on appointment_tasks
        for each statement execute function refuse_tasks()`);
    try {
      await expect(
        createAppointment(
          {
            customerId: account.id,
            homeId: home.id,
            scheduledDate: "2026-12-01",
            startTime: "09:00",
            endTime: "10:00",
            tasks: [{ description: "Visit" }],
          },
          account.id,
        ),
      ).rejects.toThrow();
    } finally {
      await database.db.execute(sql`drop trigger refuse_tasks on appointment_tasks`);
    }
    expect(await database.db.select().from(appointments)).toEqual([]);
    expect(await database.db.select().from(outbox)).toEqual([]);
  });
});

describe("the Create Appointment customer picker", () => {
  /** Customers straight into the tables (no password hashing: hundreds are needed). */
  async function addCustomers(
    people: { first: string | null; last: string | null; email: string; isEmployee?: boolean }[],
  ) {
    const rows = people.map((person) => ({ ...person, id: crypto.randomUUID() }));
    await database.db.insert(user).values(
      rows.map((r) => ({
        id: r.id,
        name: `${r.first ?? ""} ${r.last ?? ""}`.trim(),
        email: r.email,
        emailVerified: true,
      })),
    );
    await database.db.insert(profiles).values(
      rows.map((r) => ({
        userId: r.id,
        firstName: r.first,
        lastName: r.last,
        isEmployee: r.isEmployee ?? false,
      })),
    );
    return rows;
  }

  it("lists customers by name, adding the e-mail only where two share a name", async () => {
    await addCustomers([
      { first: "Zoe", last: "Quinn", email: "zoe@example.com" },
      { first: "Ann", last: "Lee", email: "ann.lee.2@example.com" },
      { first: "Ann", last: "Lee", email: "ann.lee.1@example.com" },
      { first: "Ann", last: "Brown", email: "ann.brown@example.com" },
      { first: null, last: null, email: "no.name@example.com" },
      { first: "Ann", last: "Lee", email: "staff@example.com", isEmployee: true },
    ]);
    const { customers, more } = await findCustomerChoices(undefined);
    expect(more).toBe(false);
    expect(customers.map((c) => [c.name, c.sharedName])).toEqual([
      ["Ann Brown", false],
      ["Ann Lee", true],
      ["Ann Lee", true],
      ["Zoe Quinn", false],
      ["no.name@example.com", false],
    ]);
    // A search that lists only one of the twins still tells them apart.
    const found = await findCustomerChoices("ann.lee.1");
    expect(found.customers).toEqual([
      expect.objectContaining({
        name: "Ann Lee",
        email: "ann.lee.1@example.com",
        sharedName: true,
      }),
    ]);
    // An employee of the same name is not a customer and makes nobody a twin.
    await database.db.delete(user).where(eq(user.email, "ann.lee.2@example.com"));
    expect((await findCustomerChoices("Ann Lee")).customers).toEqual([
      expect.objectContaining({ email: "ann.lee.1@example.com", sharedName: false }),
    ]);
  });

  it("names that differ only in case are told apart too", async () => {
    await addCustomers([
      { first: "Ann", last: "Lee", email: "upper@example.com" },
      { first: "ann", last: "lee", email: "lower@example.com" },
    ]);
    const { customers } = await findCustomerChoices(undefined);
    expect(customers.every((c) => c.sharedName)).toBe(true);
  });

  it("shows the first 200 by name, and a search finds the others on the server", async () => {
    await addCustomers(
      Array.from({ length: CUSTOMER_PICKER_LIMIT + 5 }, (_, i) => ({
        first: "Casey",
        last: `Member${String(i).padStart(3, "0")}`,
        email: `casey-${i}@example.com`,
      })),
    );
    await addCustomers([{ first: "Zelda", last: "Ortiz", email: "zelda@example.com" }]);
    const first = await findCustomerChoices(undefined);
    expect(first.customers).toHaveLength(CUSTOMER_PICKER_LIMIT);
    expect(CUSTOMER_PICKER_LIMIT).toBe(200);
    expect(first.more).toBe(true);
    expect(first.customers[0].name).toBe("Casey Member000");
    expect(first.customers.at(-1)!.name).toBe("Casey Member199");
    expect(first.customers.some((c) => c.name === "Zelda Ortiz")).toBe(false);

    const search = await findCustomerChoices("zelda");
    expect(search).toEqual({
      customers: [
        {
          userId: expect.any(String),
          name: "Zelda Ortiz",
          email: "zelda@example.com",
          sharedName: false,
        },
      ],
      more: false,
    });
    expect((await findCustomerChoices("Member20")).customers.map((c) => c.name)).toEqual(
      ["200", "201", "202", "203", "204"].map((n) => `Casey Member${n}`),
    );
  });
});
