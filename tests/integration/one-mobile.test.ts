import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateProfile } from "~/features/accounts/profile.server";
import { listCustomers } from "~/features/customers/queries.server";
import { staffMembershipView } from "~/features/memberships/views.server";
import { notificationSettings } from "~/features/notifications/notifications.server";
import { handymanVisits } from "~/features/visits/today.server";
import { saveTextConsent } from "~/lib/texts.server";
import { createAppointment, createHome, createUser } from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * Issue 40, item 8 (ADR 085): one mobile number per person. The number given at sign-up is the
 * one staff see, the Profile's 'Phone Number' and Notifications' 'Mobile number' are the same
 * stored number, and 'Today' and staff's pages show it as (404) 555-0181.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe(`one mobile number per person (${testDatabaseKind()})`, () => {
  it("the sign-up mobile is the phone staff and the handyman see, in one format", async () => {
    await database.db.execute(sql`truncate "user" cascade`);
    const dana = await createUser(database.db, {
      email: "dana-mobile@example.com",
      password: "x",
      firstName: "Dana",
      lastName: "Whitfield",
      isEmployee: true,
      staffRole: "handyman",
    });
    const maria = await createUser(database.db, {
      email: "maria-mobile@example.com",
      password: "x",
      firstName: "Maria",
      lastName: "Alvarez",
    });
    // As sign-up records it (auth.server.ts): the mobile and the consent to texts.
    await saveTextConsent(database.db, maria.id, {
      mobilePhone: "404 555 0181",
      consent: true,
      source: "sign-up",
    });
    const home = await createHome(database.db, maria.id);
    const day = "2026-12-01";
    await createAppointment(database.db, home, {
      scheduledDate: day,
      startTime: "09:00",
      endTime: "10:00",
      assignedEmployeeId: dana.id,
      tasks: ["Fix the gate"],
    });

    const [visit] = await handymanVisits(dana.id, "today", day);
    expect(visit!.phone).toBe("(404) 555-0181");
    expect((await staffMembershipView(maria.id))!.customer.phone).toBe("+14045550181");
    // Staff find her by the number as people write it.
    const found = await listCustomers({ search: "(404) 555-01", today: day });
    expect(found.customers.map((c) => c.userId)).toContain(maria.id);
    expect(found.customers.find((c) => c.userId === maria.id)!.phone).toBe("+14045550181");

    // The Profile's 'Phone Number' changes the same number texts go to.
    await updateProfile(maria.id, {
      firstName: "Maria",
      lastName: "Alvarez",
      phone: "(678) 555-0142",
    });
    expect((await notificationSettings(maria.id)).mobilePhone).toBe("+16785550142");
    const [again] = await handymanVisits(dana.id, "today", day);
    expect(again!.phone).toBe("(678) 555-0142");
  });
});
