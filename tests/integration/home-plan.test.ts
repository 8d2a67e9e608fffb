import { and, eq, isNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  homeAppliances,
  homeHistory,
  homePlanTasks,
  homes,
  outbox,
  serviceRequests,
  user,
} from "~/db/schema";
import { openDuePlanRequests } from "~/features/home/plan-requests.server";
import {
  firstBusinessDayOfMonth,
  sendHomeMonthNotices,
} from "~/features/home/month-notices.server";
import { homeMonthText } from "~/features/notifications/index.server";
import type { OutboxPayloads } from "~/lib/outbox.server";
import { fitsOneSegment } from "~/lib/text-segment";
import {
  listCustomerRequestPages,
  openRequestsOf,
} from "~/features/service-requests/service-requests.server";
import { completeVisit, visitTasks } from "~/features/visits/visit-life.server";
import { DEMO_LOGINS, seedDemo } from "../../server/seed/demo";
import { homeAction } from "~/features/home/actions.server";
import { homeAccess } from "~/features/home/access.server";
import { drawPlan } from "~/features/home/plan.server";
import { PLANS_DUE_PAGE_SIZE, plansDue, plansDuePage } from "~/features/home/plans-due.server";
import { homeRecord, memberHomeRecord } from "~/features/home/record.server";
import { newActionKey } from "~/lib/action-keys.server";
import { memberBasics } from "~/routes/dashboard.server";
import { addDays, businessToday, zonedInstant } from "~/lib/business-calendar";
import type { SessionUser } from "~/lib/session.server";
import {
  createAppointment,
  createHome,
  createMemberVisit,
  createMembership,
  createUser,
} from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * The home's record (ADR 087) on both databases: who may see and change it, the plan drawn from
 * the home and its appliances, 'Mark done' moving 'next due', the history, and the office's
 * 'Plans due' list around the 60-day promise. "Today" comes from the clock (moved-clock safe).
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

const today = businessToday();
let n = 0;

function sessionOf(row: { id: string; email: string }, extra: Partial<SessionUser> = {}) {
  return {
    id: row.id,
    email: row.email,
    name: row.email,
    firstName: null,
    lastName: null,
    phone: null,
    isEmployee: false,
    isHandyman: false,
    profilePhotoUrl: null,
    hasHome: true,
    twoFactorEnabled: false,
    ...extra,
  } satisfies SessionUser;
}

async function member(startDaysAgo: number) {
  n++;
  const office = await createUser(database.db, {
    email: `office${n}@example.com`,
    password: "x",
    firstName: "Sam",
    lastName: "Office",
    isEmployee: true,
  });
  const maria = await createUser(database.db, {
    email: `maria${n}@example.com`,
    password: "x",
    firstName: "Maria",
    lastName: `Member${n}`,
  });
  const home = await createHome(database.db, maria.id);
  await createMembership(database.db, maria.id, {
    startDate: addDays(today, -startDaysAgo),
    staffId: office.id,
    today,
  });
  return {
    office: sessionOf(office, { isEmployee: true }),
    maria: sessionOf(maria),
    home,
  };
}

const form = (fields: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) data.append(name, v);
  return data;
};

describe("the home's record", () => {
  it("a member adds an appliance once (sent twice), the office draws the plan, the history says who", async () => {
    const w = await member(10);
    const access = (await homeAccess(w.maria, w.home.id))!;
    expect(access.rights).toEqual({ appliances: true, plan: false, markDone: false });
    const fields = form({
      intent: "add-appliance",
      key: newActionKey(),
      type: "water_heater",
      brand: "Rheem",
      model: "XE50T10HD50U1",
      installed: "2019",
    });
    expect((await homeAction(access, fields)).body.ok).toBe(true);
    expect((await homeAction(access, fields)).body.message).toMatch(/^Already done/);
    expect(await database.db.select().from(homeAppliances)).toHaveLength(1);
    // A member does not draw the plan.
    expect((await homeAction(access, form({ intent: "draw-plan" }))).status).toBe(403);

    const office = (await homeAccess(w.office, w.home.id))!;
    expect((await homeAction(office, form({ intent: "draw-plan" }))).body.ok).toBe(true);
    // Drawn again: nothing twice.
    expect(await drawPlan(office)).toBe(0);
    const view = (await homeRecord(office))!;
    expect(view.tasks.length).toBeGreaterThanOrEqual(10);
    expect(view.tasks.some((t) => t.title.startsWith("Flush the water heater"))).toBe(true);
    expect(view.status!.ready).toBe(true);
    expect(view.status!.sentence).toBe(
      `Your plan is ready: 1 appliance documented, ${view.tasks.length} tasks planned`,
    );
    const history = await database.db
      .select()
      .from(homeHistory)
      .where(eq(homeHistory.homeId, w.home.id));
    expect(history.map((h) => h.actorName).sort()).toEqual([w.maria.email, w.office.email].sort());
  });

  it("'Mark done' moves last done and next due; a removed task stays out when drawn again", async () => {
    const w = await member(10);
    const office = (await homeAccess(w.office, w.home.id))!;
    await drawPlan(office);
    const [gutters] = await database.db
      .select()
      .from(homePlanTasks)
      .where(eq(homePlanTasks.catalogKey, "gutters"));
    const before = (await homeRecord(office))!.tasks.find((t) => t.id === gutters!.id)!;
    await homeAction(office, form({ intent: "mark-done", key: newActionKey(), id: gutters!.id }));
    const after = (await homeRecord(office))!.tasks.find((t) => t.id === gutters!.id)!;
    expect(after.lastDoneOn).toBe(today);
    expect(after.nextDue > today).toBe(true);
    expect(after.nextDue >= before.nextDue).toBe(true);
    await homeAction(office, form({ intent: "remove-task", key: newActionKey(), id: gutters!.id }));
    expect(await drawPlan(office)).toBe(0);
    expect((await homeRecord(office))!.tasks.some((t) => t.id === gutters!.id)).toBe(false);
  });

  it("a handyman sees only the homes of that day's visits; a stranger sees none", async () => {
    const w = await member(10);
    const dana = await createUser(database.db, {
      email: `dana${n}@example.com`,
      password: "x",
      firstName: "Dana",
      lastName: "Whitfield",
      isEmployee: true,
      staffRole: "handyman",
    });
    const handyman = sessionOf(dana, { isEmployee: true, isHandyman: true });
    expect(await homeAccess(handyman, w.home.id)).toBeNull();
    await createAppointment(database.db, w.home, {
      scheduledDate: today,
      startTime: "09:00",
      endTime: "10:00",
      assignedEmployeeId: dana.id,
      tasks: ["Look at the gate"],
    });
    const access = await homeAccess(handyman, w.home.id, zonedInstant(today, 8 * 60));
    expect(access?.rights).toEqual({ appliances: true, plan: false, markDone: true });
    const other = await member(10);
    expect(await homeAccess(other.maria, w.home.id)).toBeNull();
  });
});

describe("a member's My Home tab (ADR 102)", () => {
  // The record without its form key (a new one each read).
  const shown = (view: Awaited<ReturnType<typeof homeRecord>>) =>
    view && { ...view, keySeed: undefined };

  it("reads her home with its record in one statement: the same record as her access gives", async () => {
    const w = await member(10);
    // A home with nothing on record yet, and no other home's record.
    await member(20);
    const access = (await homeAccess(w.maria, w.home.id))!;
    expect(shown(await memberHomeRecord(w.maria, null))).toEqual(shown(await homeRecord(access)));

    const office = (await homeAccess(w.office, w.home.id))!;
    await homeAction(
      access,
      form({ intent: "add-appliance", key: newActionKey(), type: "furnace", brand: "Trane" }),
    );
    await drawPlan(office);
    const [gutters] = await database.db
      .select()
      .from(homePlanTasks)
      .where(eq(homePlanTasks.catalogKey, "gutters"));
    await homeAction(office, form({ intent: "remove-task", key: newActionKey(), id: gutters!.id }));
    // More history than the record shows (the last 20), at distinct times.
    await database.db.insert(homeHistory).values(
      Array.from({ length: 22 }, (_, i) => ({
        homeId: w.home.id,
        actorName: "Sam Office",
        summary: `Entry ${i}`,
        details: { i },
        createdAt: new Date(Date.UTC(2026, 0, 1, 12, i)),
      })),
    );
    const view = (await memberHomeRecord(w.maria, null))!;
    expect(shown(view)).toEqual(shown(await homeRecord(access)));
    expect(view.status?.sentence).toMatch(/^Your plan is/);
    expect(view.appliances.map((a) => a.brand)).toEqual(["Trane"]);
    expect(view.tasks.some((t) => t.id === gutters!.id)).toBe(false);
    expect(view.history).toHaveLength(20);
    expect(view.rights).toEqual({ appliances: true, plan: false, markDone: false });

    // The dashboard's first statement brings her plan's tasks (not removed) for the due ones
    // to be opened, as openDuePlanRequests reads them.
    const byId = (tasks: { id: string }[]) => [...tasks].sort((a, b) => a.id.localeCompare(b.id));
    const { planTasks } = await memberBasics(w.maria.id, true);
    const stored = await database.db
      .select()
      .from(homePlanTasks)
      .where(and(eq(homePlanTasks.homeId, w.home.id), isNull(homePlanTasks.removedAt)));
    expect(stored.length).toBeGreaterThan(0);
    expect(byId(planTasks!)).toEqual(byId(stored));
    expect((await memberBasics((await member(5)).maria.id, true)).planTasks).toEqual([]);

    // My Home drawn from those tasks (not read again) is the record read whole.
    const given = (await memberBasics(w.maria.id, true)).planTasks!;
    const drawn = (await memberHomeRecord(w.maria, null, given))!;
    expect(drawn.tasks.length).toBeGreaterThan(1);
    expect(shown(drawn)).toEqual(shown(await memberHomeRecord(w.maria, null)));
  });

  it("is none for a customer without a home", async () => {
    const lee = await createUser(database.db, {
      email: `lee${++n}@example.com`,
      password: "x",
      firstName: "Lee",
      lastName: "Nohome",
    });
    expect(await memberHomeRecord(sessionOf(lee), null)).toBeNull();
  });
});

describe("'Plans due'", () => {
  it("lists members whose 60 days end within 14 days or have passed, until the plan is made", async () => {
    const soon = await member(50); // due in 10 days
    const late = await member(70); // 10 days late
    await member(40); // due in 20 days: not yet listed
    const listed = await plansDue();
    expect(listed.map((p) => p.customerId)).toEqual([late.maria.id, soon.maria.id]);
    expect(listed[0]!.status.overdue).toBe(true);
    expect(listed[0]!.status.sentence).toMatch(
      /^Your plan was due by [A-Z][a-z]+ \d{1,2}, \d{4}: 0 appliances documented, 0 tasks planned$/,
    );
    expect(listed[1]!.status.sentence).toMatch(/^Your plan is due by /);

    // The late one gets its plan and a documented appliance: off the list.
    const office = (await homeAccess(late.office, late.home.id))!;
    await homeAction(
      office,
      form({ intent: "add-appliance", key: newActionKey(), type: "furnace", brand: "Carrier" }),
    );
    await drawPlan(office);
    // A brand without a model is not documented yet.
    expect((await plansDue()).map((p) => p.customerId)).toContain(late.maria.id);
    const [furnace] = await database.db.select().from(homeAppliances);
    await homeAction(
      office,
      form({
        intent: "edit-appliance",
        key: newActionKey(),
        id: furnace!.id,
        type: "furnace",
        brand: "Carrier",
        model: "59SC5A060E17",
      }),
    );
    expect((await plansDue()).map((p) => p.customerId)).toEqual([soon.maria.id]);
  });

  it("comes a page at a time, with the count of all", async () => {
    const due = [];
    for (let i = 0; i < PLANS_DUE_PAGE_SIZE + 2; i++) due.push(await member(50 + i));
    const first = await plansDuePage(1);
    expect(first).toMatchObject({ total: due.length, page: 1, pageCount: 2 });
    expect(first.plans).toHaveLength(PLANS_DUE_PAGE_SIZE);
    const second = await plansDuePage(2);
    expect(second.plans).toHaveLength(2);
    // Together the pages are the whole list, each member once, in its order.
    expect([...first.plans, ...second.plans].map((p) => p.customerId)).toEqual(
      (await plansDue()).map((p) => p.customerId),
    );
  });
});

describe("due plan tasks become bookable", () => {
  it("a task due this month becomes one request, marked from the plan; done on a visit, it moves on", async () => {
    const w = await member(10);
    const office = (await homeAccess(w.office, w.home.id))!;
    const month = Number(today.slice(5, 7));
    await homeAction(
      office,
      form({
        intent: "add-task",
        key: newActionKey(),
        title: "Oil the garage door",
        months: [String(month)],
        estimatedMinutes: "30",
      }),
    );
    const [task] = await database.db.select().from(homePlanTasks);
    expect(await openDuePlanRequests(w.maria.id)).toBe(1);
    expect(await openDuePlanRequests(w.maria.id)).toBe(0);
    const open = await openRequestsOf(w.maria.id);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      title: "Oil the garage door",
      fromPlan: true,
      priority: "next",
    });
    const lists = await listCustomerRequestPages(w.maria.id, { next: 1, later: 1, completed: 1 });
    expect(lists.next.items[0]!.fromPlan).toBe(true);

    const dana = await createUser(database.db, {
      email: `dana-b${n}@example.com`,
      password: "x",
      firstName: "Dana",
      lastName: "Whitfield",
      isEmployee: true,
      staffRole: "handyman",
    });
    const visit = await createMemberVisit(database.db, w.home, {
      today,
      scheduledDate: today,
      startTime: "09:00",
      endTime: "10:45",
      assignedEmployeeId: dana.id,
      tasks: [{ description: open[0]!.title, requestId: open[0]!.id }],
    });
    const tasks = await visitTasks(visit.appointment.id);
    await completeVisit(
      { id: w.office.id, isEmployee: true },
      visit.appointment.id,
      { minutesWorked: 30, outcomes: { [tasks[0]!.id]: "done" } },
      { notify: false },
    );
    const [after] = await database.db
      .select()
      .from(homePlanTasks)
      .where(eq(homePlanTasks.id, task!.id));
    expect(after!.lastDoneOn).toBe(today);
    const view = (await homeRecord(office))!.tasks.find((t) => t.id === task!.id)!;
    expect(view.state).toBe("later");
    expect(view.nextDue.slice(0, 4)).toBe(String(Number(today.slice(0, 4)) + 1));
    expect(await openDuePlanRequests(w.maria.id)).toBe(0);
    const [request] = await database.db
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.planTaskId, task!.id));
    expect(request!.status).toBe("complete");
  });
});

describe("'Your home this month'", () => {
  it("on the first business day, from 9 AM, one e-mail per member per month names the due tasks", async () => {
    const w = await member(10);
    const month = Number(today.slice(5, 7));
    await database.db.insert(homePlanTasks).values({
      homeId: w.home.id,
      title: "Oil the garage door",
      months: [month],
      estimatedMinutes: 30,
    });
    const first = firstBusinessDayOfMonth(today);
    // Not before 9 AM, not on another day.
    expect(await sendHomeMonthNotices(zonedInstant(first, 8 * 60 + 59))).toBe(0);
    expect(await sendHomeMonthNotices(zonedInstant(addDays(first, 1), 10 * 60))).toBe(0);
    // Two passes at once (two servers): one notice.
    const at = zonedInstant(first, 9 * 60 + 5);
    const counts = await Promise.all([sendHomeMonthNotices(at), sendHomeMonthNotices(at)]);
    expect(counts[0]! + counts[1]!).toBe(1);
    expect(await sendHomeMonthNotices(zonedInstant(first, 15 * 60))).toBe(0);
    const mails = (await database.db.select().from(outbox)).filter((o) => o.kind === "email");
    expect(mails).toHaveLength(1);
    const mail = mails[0]!.payload as OutboxPayloads["email"];
    expect(mail.to).toBe(w.maria.email);
    expect(mail.subject).toBe("Your home this month");
    expect(mail.text).toContain("- Oil the garage door");
    expect(mail.text).toMatch(/Book a visit: \S+\/dashboard\/book/);
  });

  it("its text fits one segment", () => {
    expect(
      fitsOneSegment(homeMonthText(12, "https://peachtree-handyman.example/dashboard/book")),
    ).toBe(true);
  });
});

describe("the demo", () => {
  it("Maria's home has a plan of 10 tasks or more, some due this month, and 3 appliances or more, one with its label photo", async () => {
    await seedDemo(database.db, today);
    const [maria] = await database.db
      .select()
      .from(user)
      .where(eq(user.email, DEMO_LOGINS[1].email));
    const [home] = await database.db.select().from(homes).where(eq(homes.customerId, maria!.id));
    const access = (await homeAccess(sessionOf(maria!), home!.id))!;
    const view = (await homeRecord(access))!;
    expect(view.tasks.length).toBeGreaterThanOrEqual(10);
    expect(view.tasks.filter((t) => t.state === "due").length).toBeGreaterThanOrEqual(2);
    expect(view.appliances.filter((a) => a.brand && a.model).length).toBeGreaterThanOrEqual(3);
    expect(view.appliances.filter((a) => a.hasLabelPhoto)).toHaveLength(1);
    expect(view.status!.ready).toBe(true);
  });
});
