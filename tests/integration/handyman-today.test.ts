import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  actionKeys,
  appointments,
  appointmentTasks,
  membershipParts,
  outbox,
  profiles,
  requestPhotos,
  serviceRequests,
} from "~/db/schema";
import { setStaffRole } from "~/features/accounts/employees.server";
import { destinationFor } from "~/features/accounts/sign-in.server";
import { findViewablePhoto } from "~/features/photos/request-photos.server";
import {
  addPartToOwnVisit,
  finishOwnVisit,
  handymanVisits,
  NOT_YOUR_VISIT_MESSAGE,
  ownTaskRequest,
  progressOwnVisit,
  suggestedMinutes,
} from "~/features/visits/today.server";
import { newActionKey } from "~/lib/action-keys.server";
import {
  createAppointment,
  createHome,
  createMembership,
  createMemberVisit,
  createServiceRequest,
  createUser,
} from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * The handyman's role and 'Today' (ADR 047-048) on both databases: a handyman acts on and sees
 * their own visits only, and a form sent twice, even at once, is applied once.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox, action_keys cascade`);
});

// Monday 30 November 2026, 10:00 AM in Atlanta (the visit's day), and the day before.
const day = "2026-11-30";
const at = (time: string) => new Date(`${day}T${time}:00-05:00`);
const dayBefore = "2026-11-20";

let n = 0;
async function world() {
  n++;
  const dana = await createUser(database.db, {
    email: `dana${n}@example.com`,
    password: "x",
    firstName: "Dana",
    lastName: "Whitfield",
    isEmployee: true,
    staffRole: "handyman",
  });
  const other = await createUser(database.db, {
    email: `lee${n}@example.com`,
    password: "x",
    firstName: "Lee",
    lastName: "Other",
    isEmployee: true,
    staffRole: "handyman",
  });
  const office = await createUser(database.db, {
    email: `sam${n}@example.com`,
    password: "x",
    firstName: "Sam",
    lastName: "Office",
    isEmployee: true,
  });
  const member = await createUser(database.db, {
    email: `maria${n}@example.com`,
    password: "x",
    firstName: "Maria",
    lastName: "Alvarez",
  });
  const home = await createHome(database.db, member.id);
  await createMembership(database.db, member.id, {
    plan: "complete",
    billing: "annual",
    startDate: dayBefore,
    staffId: office.id,
    today: dayBefore,
  });
  const gate = await createServiceRequest(database.db, home, { title: "Fix the gate" });
  const shelves = await createServiceRequest(database.db, home, { title: "Hang shelves" });
  const { appointment: visit } = await createMemberVisit(database.db, home, {
    today: dayBefore,
    scheduledDate: day,
    startTime: "09:00",
    endTime: "10:45",
    assignedEmployeeId: dana.id,
    tasks: [
      { description: gate.title, requestId: gate.id },
      { description: shelves.title, requestId: shelves.id },
    ],
  });
  const othersVisit = await createAppointment(database.db, home, {
    scheduledDate: day,
    startTime: "13:00",
    endTime: "14:00",
    assignedEmployeeId: other.id,
    tasks: ["Look at the gutters"],
  });
  const tasks = await database.db
    .select()
    .from(appointmentTasks)
    .where(eq(appointmentTasks.appointmentId, visit.id));
  const taskOf = (requestId: string) => tasks.find((t) => t.serviceRequestId === requestId)!;
  return { dana, other, office, member, home, gate, shelves, visit, othersVisit, taskOf };
}

async function statusOf(id: string) {
  const [row] = await database.db
    .select({ status: appointments.status })
    .from(appointments)
    .where(eq(appointments.id, id));
  return row.status;
}

describe(`roles (${testDatabaseKind()})`, () => {
  it("existing and new employees are office staff; the role is set per employee only", async () => {
    const { office, dana, member } = await world();
    const role = async (id: string) =>
      (
        await database.db
          .select({ role: profiles.staffRole })
          .from(profiles)
          .where(eq(profiles.userId, id))
      )[0].role;
    expect(await role(office.id)).toBe("office");
    expect(await role(dana.id)).toBe("handyman");
    // (Another office account first: the last one keeps its role, last-office-account.test.ts.)
    await createUser(database.db, {
      email: `second-office${n}@example.com`,
      password: "x",
      firstName: "Ola",
      lastName: "Office",
      isEmployee: true,
    });
    expect(await setStaffRole(office.id, "handyman")).toBe(true);
    expect(await role(office.id)).toBe("handyman");
    // A customer is no employee: nothing changes.
    expect(await setStaffRole(member.id, "handyman")).toBe(false);
    await expect(
      database.db.execute(sql`update profiles set staff_role = 'boss' where user_id = ${dana.id}`),
    ).rejects.toThrow();
  });

  it("a handyman signs in to 'Today', office staff to the dashboard", async () => {
    const { office, dana } = await world();
    expect(await destinationFor(dana.id)).toBe("/employee/today");
    expect(await destinationFor(office.id)).toBe("/employee");
  });

  it("a handyman sees their own visits only, with the customer's details", async () => {
    const { dana, other, visit, othersVisit } = await world();
    const mine = await handymanVisits(dana.id, "today", day);
    expect(mine.map((v) => v.id)).toEqual([visit.id]);
    expect(mine[0]).toMatchObject({ customerName: "Maria Alvarez", startLabel: "9:00 AM" });
    expect(mine[0].tasks.map((t) => t.description).sort()).toEqual([
      "Fix the gate",
      "Hang shelves",
    ]);
    expect((await handymanVisits(other.id, "today", day)).map((v) => v.id)).toEqual([
      othersVisit.id,
    ]);
    expect(await handymanVisits(dana.id, "tomorrow", day)).toEqual([]);
    expect((await handymanVisits(dana.id, "week", "2026-11-25")).map((v) => v.id)).toEqual([
      visit.id,
    ]);
  });

  it("a walk-thru for a lead without an account is on its handyman's day only", async () => {
    const { dana, other, visit } = await world();
    const [walkThru] = await database.db
      .insert(appointments)
      .values({
        kind: "walk_thru",
        contactName: "Rosa Diaz",
        contactEmail: "rosa@example.com",
        address: "12 Elm St, Atlanta, GA 30305",
        assignedEmployeeId: dana.id,
        scheduledDate: day,
        startTime: "14:00:00",
        endTime: "14:45:00",
      })
      .returning();
    const mine = await handymanVisits(dana.id, "today", day);
    expect(mine.map((v) => v.id)).toEqual([visit.id, walkThru.id]);
    expect(mine[1]).toMatchObject({
      isWalkThru: true,
      customerName: "Rosa Diaz",
      address: "12 Elm St, Atlanta, GA 30305",
      tasks: [],
    });
    expect(mine[0].isWalkThru).toBe(false);
    expect((await handymanVisits(other.id, "today", day)).map((v) => v.id)).not.toContain(
      walkThru.id,
    );
  });

  it("another handyman's visit is refused for every action, and nothing changes", async () => {
    const { other, visit, taskOf, gate, shelves } = await world();
    const as = { id: other.id };
    await expect(
      progressOwnVisit(
        as,
        { appointmentId: visit.id, to: "on_the_way", key: newActionKey() },
        { now: at("08:30") },
      ),
    ).rejects.toThrow(NOT_YOUR_VISIT_MESSAGE);
    await expect(
      progressOwnVisit(
        as,
        { appointmentId: visit.id, to: "in_progress", key: newActionKey() },
        { now: at("09:00") },
      ),
    ).rejects.toThrow(NOT_YOUR_VISIT_MESSAGE);
    await expect(
      finishOwnVisit(
        as,
        {
          appointmentId: visit.id,
          minutesWorked: 60,
          outcomes: { [taskOf(gate.id).id]: "done", [taskOf(shelves.id).id]: "done" },
          key: newActionKey(),
          confirmed: true,
        },
        { now: at("10:00") },
      ),
    ).rejects.toThrow(NOT_YOUR_VISIT_MESSAGE);
    await expect(
      addPartToOwnVisit(as, {
        appointmentId: visit.id,
        description: "Hinge",
        costCents: 900,
        key: newActionKey(),
      }),
    ).rejects.toThrow(NOT_YOUR_VISIT_MESSAGE);
    expect(await ownTaskRequest(other.id, visit.id, taskOf(gate.id).id)).toBeNull();
    expect(await statusOf(visit.id)).toBe("booked");
    expect(await database.db.select().from(membershipParts)).toHaveLength(0);
    expect(await database.db.select().from(actionKeys)).toHaveLength(0);
  });

  it("a handyman sees a request's photos only when the request is on a visit of theirs", async () => {
    const { dana, other, office, member, gate } = await world();
    const [photo] = await database.db
      .insert(requestPhotos)
      .values({
        requestId: gate.id,
        filePath: "request-photos/x/a.jpg",
        fileName: "gate.jpg",
        fileSize: 10,
        contentType: "image/jpeg",
      })
      .returning();
    const viewer = (id: string, isHandyman: boolean) => ({ id, isEmployee: true, isHandyman });
    expect(await findViewablePhoto(viewer(dana.id, true), photo.id)).not.toBeNull();
    expect(await findViewablePhoto(viewer(other.id, true), photo.id)).toBeNull();
    expect(await findViewablePhoto(viewer(office.id, false), photo.id)).not.toBeNull();
    expect(await findViewablePhoto({ id: member.id, isEmployee: false }, photo.id)).not.toBeNull();
  });
});

describe(`idempotency keys (${testDatabaseKind()})`, () => {
  it("'On my way' sent twice is applied once: one state change, one e-mail", async () => {
    const { dana, visit } = await world();
    const key = newActionKey();
    const input = { appointmentId: visit.id, to: "on_the_way" as const, key };
    const first = await progressOwnVisit({ id: dana.id }, input, { now: at("08:30") });
    const again = await progressOwnVisit({ id: dana.id }, input, { now: at("08:31") });
    expect([first.applied, again.applied]).toEqual([true, false]);
    expect(await statusOf(visit.id)).toBe("on_the_way");
    const mails = await database.db.select().from(outbox).where(eq(outbox.kind, "email"));
    const onMyWay = mails.filter((m) =>
      String((m.payload as { subject?: string }).subject).includes("on the way"),
    );
    expect(onMyWay).toHaveLength(1);
  });

  it("'Finish visit' posted five times at once completes the visit once", async () => {
    const { dana, visit, taskOf, gate, shelves } = await world();
    await progressOwnVisit(
      { id: dana.id },
      { appointmentId: visit.id, to: "in_progress", key: newActionKey() },
      { now: at("09:05") },
    );
    const key = newActionKey();
    const input = {
      appointmentId: visit.id,
      minutesWorked: 60,
      outcomes: {
        [taskOf(gate.id).id]: "done" as const,
        [taskOf(shelves.id).id]: "not_done" as const,
      },
      key,
      confirmed: true,
    };
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => finishOwnVisit({ id: dana.id }, input, { now: at("10:05") })),
    );
    const applied = results.filter((r) => r.status === "fulfilled" && r.value.applied);
    expect(applied).toHaveLength(1);
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    expect(await statusOf(visit.id)).toBe("completed");
    const statuses = await database.db
      .select({ id: serviceRequests.id, status: serviceRequests.status })
      .from(serviceRequests);
    expect(statuses.find((s) => s.id === gate.id)!.status).toBe("complete");
    expect(statuses.find((s) => s.id === shelves.id)!.status).toBe("reviewed");
    const completedMails = (
      await database.db.select().from(outbox).where(eq(outbox.kind, "email"))
    ).filter((m) =>
      String((m.payload as { subject?: string }).subject).startsWith("Visit completed"),
    );
    expect(completedMails).toHaveLength(1);
  });

  it("'Add part' sent twice records one part; over $100 it waits for the member", async () => {
    const { dana, visit } = await world();
    const key = newActionKey();
    const input = {
      appointmentId: visit.id,
      description: "Gate hinge set",
      costCents: 12_500,
      key,
    };
    const results = await Promise.all([
      addPartToOwnVisit({ id: dana.id }, input),
      addPartToOwnVisit({ id: dana.id }, input),
    ]);
    expect(results.map((r) => r.applied).sort()).toEqual([false, true]);
    const parts = await database.db.select().from(membershipParts);
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({ status: "pending_approval", needsApproval: true });
  });

  it("a refused action leaves its key unused, so the corrected form still applies", async () => {
    const { dana, visit } = await world();
    const key = newActionKey();
    const input = { appointmentId: visit.id, to: "on_the_way" as const, key };
    // The day before the visit: refused, nothing kept.
    await expect(
      progressOwnVisit({ id: dana.id }, input, { now: new Date("2026-11-27T15:00:00Z") }),
    ).rejects.toThrow();
    expect(await database.db.select().from(actionKeys)).toHaveLength(0);
    expect((await progressOwnVisit({ id: dana.id }, input, { now: at("08:30") })).applied).toBe(
      true,
    );
  });

  it("'Finish visit' offers the time since 'Start visit', rounded to 15 minutes, within the block", () => {
    const start = at("09:02").toISOString();
    expect(suggestedMinutes(start, 105, at("10:00"))).toBe(60);
    expect(suggestedMinutes(start, 105, at("09:05"))).toBe(15);
    expect(suggestedMinutes(start, 105, at("13:00"))).toBe(105);
    expect(suggestedMinutes(null, 105, at("10:00"))).toBe(105);
  });
});
