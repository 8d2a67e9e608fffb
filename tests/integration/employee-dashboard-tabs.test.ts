import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { introCalls, paymentRefunds } from "~/db/schema";
import { employeeDashboard, parseDashboardQuery } from "~/features/employee/dashboard.server";
import {
  createAppointment,
  createHome,
  createMembership,
  createServiceRequest,
  createUser,
} from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * /employee reads the list of the tab shown only; the counters, the staff list of the appointment
 * dialog and an open request's detail come with every tab.
 */

let database: TestDatabase;
// The dashboard is read as on Monday 23 November 2026, 10 AM in Atlanta, whatever the real clock
// says: the appointment (the 25th) and the intro call (the 26th) are upcoming then.
const NOW = new Date("2026-11-23T15:00:00Z");
let requestId: string;
let customerId: string;

beforeAll(async () => {
  database = await useTestDatabase();
  await database.db.execute(sql`truncate "user", service_requests, intro_calls cascade`);
  const customer = await createUser(database.db, {
    email: `tabs-${Date.now()}@example.com`,
    password: "x",
    firstName: "Imani",
    lastName: "Okafor",
  });
  customerId = customer.id;
  const home = await createHome(database.db, customer.id, { city: "Decatur" });
  const request = await createServiceRequest(database.db, home, { title: "Leaky faucet" });
  requestId = request.id;
  await createAppointment(database.db, home, {
    scheduledDate: "2026-11-25",
    startTime: "09:00",
    endTime: "10:00",
    tasks: ["Fix the faucet"],
  });
  const membership = await createMembership(database.db, customer.id, { startDate: "2026-11-01" });
  // A refund owed by check (issue 27, item 5), one partly sent back to the card, and one paid.
  await database.db.insert(paymentRefunds).values([
    {
      membershipId: membership.id,
      amountCents: 72_407,
      status: "to_pay",
      createdAt: new Date("2026-11-20T15:00:00Z"),
    },
    {
      membershipId: membership.id,
      amountCents: 10_000,
      toCardCents: 4_000,
      status: "to_pay",
      createdAt: new Date("2026-11-21T15:00:00Z"),
    },
    { membershipId: membership.id, amountCents: 5_000, status: "paid" },
  ]);
  await database.db.insert(introCalls).values({
    name: "Caller Tabs",
    email: "caller@example.com",
    phone: "(470) 555-0111",
    startsAt: new Date("2026-11-26T15:00:00Z"),
  });
});
afterAll(async () => {
  await database?.drop();
});

const dashboard = (search: string) =>
  employeeDashboard(parseDashboardQuery(new URLSearchParams(search)), NOW);

describe("the employee dashboard reads the tab shown", () => {
  it("All Requests (the default): the requests, not the appointments or the customers", async () => {
    const data = await dashboard("");
    expect(data.tab).toBe("requests");
    expect(data.requests?.rows.map((r) => r.title)).toEqual(["Leaky faucet"]);
    expect(data.requests?.matching).toBe(1);
    expect(data.appointments).toBeNull();
    expect(data.customers).toBeNull();
    expect(data.counters.total).toBe(1);
    expect(data.counters.scheduledAppointments).toBe(1);
    expect(data.employees).toEqual(expect.any(Array));
  });

  it("Appointments: the appointments and the intro calls only", async () => {
    const data = await dashboard("tab=appointments");
    expect(data.tab).toBe("appointments");
    expect(data.requests).toBeNull();
    expect(data.customers).toBeNull();
    expect(data.appointments?.appointments).toHaveLength(1);
    expect(data.appointments?.introCalls.map((c) => c.name)).toEqual(["Caller Tabs"]);
  });

  it("Customers: the customers with their memberships only", async () => {
    const data = await dashboard("tab=customers");
    expect(data.tab).toBe("customers");
    expect(data.requests).toBeNull();
    expect(data.appointments).toBeNull();
    expect(data.customers?.customers).toHaveLength(1);
    expect(data.customers?.customers[0].membership?.planName).toEqual(expect.any(String));
    // 'Refunds to pay': what is still owed by hand, oldest first, the paid one gone.
    expect(data.customers?.refundsToPay).toEqual([
      expect.objectContaining({
        customerId,
        customerName: "Imani Okafor",
        amountCents: 72_407,
        since: "2026-11-20",
      }),
      expect.objectContaining({ customerId, amountCents: 6_000, since: "2026-11-21" }),
    ]);
  });

  it("an open request's detail comes with any tab, with its customer's membership", async () => {
    const data = await dashboard(`tab=customers&request=${requestId}`);
    expect(data.detail?.customerId).toBe(customerId);
    expect(data.detail?.membership?.planName).toEqual(expect.any(String));
    expect(data.detailMissing).toBe(false);
  });

  it("an unknown tab reads as All Requests", async () => {
    const data = await dashboard("tab=everything");
    expect(data.tab).toBe("requests");
    expect(data.requests).not.toBeNull();
    expect(data.customers).toBeNull();
  });
});
