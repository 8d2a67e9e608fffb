import type { Database } from "~/db/client.server";
import {
  addDays,
  businessToday,
  closedDays,
  isBusinessDay,
  type IsoDate,
  zonedInstant,
} from "~/lib/business-calendar";
import { addPart, markPartBought } from "~/features/memberships/parts.server";
import { recordPayment } from "~/features/memberships/money.server";
import { completeVisit, visitTasks } from "~/features/visits/visit-life.server";
import {
  createAppointment,
  createHome,
  createMembership,
  createMemberVisit,
  createServiceRequest,
  createUser,
} from "./factories";
import { eq } from "drizzle-orm";
import { hashPassword } from "better-auth/crypto";
import { appointments, introCalls, leadEntries, profiles, leads, specialists } from "~/db/schema";
import { demoLabelPhotos, seedHomeRecord } from "./home";

export const DEMO_LOGINS = [
  { role: "employee", email: "staff@peachtree-handyman.example", password: "Staff-demo-2026!" },
  { role: "customer", email: "maria@peachtree-handyman.example", password: "Maria-demo-2026!" },
  { role: "customer", email: "james@peachtree-handyman.example", password: "James-demo-2026!" },
  // The handyman on the demo's visits (ADR 047): lands on 'Today'.
  { role: "handyman", email: "dana@peachtree-handyman.example", password: "Dana-demo-2026!" },
] as const;

/** The demo logins, one a line, for whoever has just created them. */
export function demoLoginLines() {
  return DEMO_LOGINS.map(
    (login) => `  ${login.role.padEnd(9)} ${login.email}  password: ${login.password}`,
  );
}

/**
 * The demo's visits keep the business calendar whatever day it is created on: each falls on a
 * business day (Monday to Friday, not a closed day), the past one on or before its nominal day
 * and the coming one on or after, at 9 AM, inside every handyman's default hours (8 AM-6 PM).
 */
function businessDayFrom(date: IsoDate, step: 1 | -1): IsoDate {
  const closed = closedDays();
  let day = date;
  while (!isBusinessDay(day, closed)) day = addDays(day, step);
  return day;
}

/** A password and its hash, started now (createUser's `passwordHash`). */
function hashedInAdvance(password: string) {
  const passwordHash = hashPassword(password);
  // Awaited by createUser; a failure is seen there, not as an unhandled rejection before.
  passwordHash.catch(() => {});
  return { password, passwordHash };
}

/**
 * What the demo computes before it writes: every password's hash at once, on Node's thread pool
 * (one after another they were about half of a newcomer's demo, five times 90 ms of CPU), and
 * the water heater's label photo. Started when called: a first start's process calls this as it
 * loads, so they are made while it waits for the database (ADR 105).
 */
export function demoInputs() {
  const logins = [...DEMO_LOGINS.map((login) => login.password), "Sam-demo-2026!"].map(
    hashedInAdvance,
  );
  return { logins, labelPhotos: demoLabelPhotos() };
}
export type DemoInputs = ReturnType<typeof demoInputs>;

/**
 * `today` (the business day the demo is made on) is a parameter so tests can move it; `inputs`,
 * so a first start's process can make them before the database is open.
 */
export async function seedDemo(
  db: Database,
  today: IsoDate = businessToday(),
  inputs: DemoInputs = demoInputs(),
) {
  /** A date N days from today in the business time zone, as YYYY-MM-DD. */
  const dayFromToday = (days: number) => addDays(today, days);
  // Dana's day: the day the demo is made on (or the next business day), and the days after;
  // the coming visit of Maria's falls after both.
  const first = businessDayFrom(today, 1);
  const second = businessDayFrom(addDays(first, 1), 1);
  const comingDay = businessDayFrom(
    dayFromToday(3) > second ? dayFromToday(3) : addDays(second, 1),
    1,
  );
  const [staffLogin, mariaLogin, jamesLogin, danaLogin, samLogin] = inputs.logins;
  await db.transaction(async (tx) => {
    // The office (sees everything) and Dana, the handyman on every demo visit.
    const staff = await createUser(tx, {
      email: DEMO_LOGINS[0].email,
      ...staffLogin,
      firstName: "Sam",
      lastName: "Reyes",
      phone: "(404) 555-0150",
      isEmployee: true,
    });
    const dana = await createUser(tx, {
      email: DEMO_LOGINS[3].email,
      ...danaLogin,
      firstName: "Dana",
      lastName: "Whitfield",
      phone: "(404) 555-0155",
      isEmployee: true,
      staffRole: "handyman",
    });
    // The handyman who covers for Dana when she is away (ADR 088): 'Book with Sam'.
    await createUser(tx, {
      email: "sam.okafor@peachtree-handyman.example",
      ...samLogin,
      firstName: "Sam",
      lastName: "Okafor",
      phone: "(404) 555-0163",
      isEmployee: true,
      staffRole: "handyman",
    });
    const maria = await createUser(tx, {
      email: DEMO_LOGINS[1].email,
      ...mariaLogin,
      firstName: "Maria",
      lastName: "Alvarez",
      phone: "(404) 555-0181",
      // Maria signs in with a text code too (ADR 086).
      mobileVerified: true,
    });
    const james = await createUser(tx, {
      email: DEMO_LOGINS[2].email,
      ...jamesLogin,
      firstName: "James",
      lastName: "Okafor",
      phone: "(770) 555-0127",
    });
    const mariaHome = await createHome(tx, maria.id, {
      address: "418 Ponce de Leon Ave",
      city: "Decatur",
      state: "GA",
      zipCode: "30030",
      propertyNotes: "Gate code 2468. Park on the street; the driveway is steep.",
    });
    const jamesHome = await createHome(tx, james.id, {
      address: "77 Roswell Mill Rd",
      city: "Roswell",
      state: "GA",
      zipCode: "30075",
    });
    const leak = await createServiceRequest(tx, mariaHome, {
      title: "Kitchen faucet drips",
      description: "The kitchen faucet drips all night even when the handle is fully off.",
      priority: "next",
      position: 0,
    });
    const gallery = await createServiceRequest(tx, mariaHome, {
      title: "Hang gallery wall",
      description: "Six framed prints in the hallway; I have the layout drawn on paper.",
      priority: "later",
      position: 0,
    });
    const drywall = await createServiceRequest(tx, mariaHome, {
      title: "Patch drywall in the guest room",
      description: "Two doorknob holes behind the guest room door.",
      priority: "later",
      position: 1,
      status: "reviewed",
    });
    await createServiceRequest(tx, mariaHome, {
      title: "Replace porch light fixture",
      description: "Swapped the old brass fixture for the new black one.",
      priority: "later",
      position: 2,
      status: "complete",
    });
    const gutters = await createServiceRequest(tx, jamesHome, {
      title: "Clean gutters",
      description: "Front and back gutters are full of leaves.",
      priority: "next",
      position: 0,
    });
    // Maria is a Complete Home Care member since 100 days ago (monthly): four months charged,
    // three paid, one visit done with a bought part, the coming visit reserved with a part
    // waiting for her approval. James has no membership.
    const membership = await createMembership(tx, maria.id, {
      plan: "complete",
      billing: "monthly",
      startDate: dayFromToday(-100),
      staffId: staff.id,
      today,
    });
    await seedHomeRecord(tx, {
      homeId: mariaHome.id,
      staff: { id: staff.id, name: "Sam Reyes" },
      today,
      labelPhotos: inputs.labelPhotos,
    });
    // Maria's dedicated handyman is Dana (ADR 088).
    await tx
      .update(profiles)
      .set({ dedicatedHandymanId: dana.id })
      .where(eq(profiles.userId, maria.id));
    for (const reference of ["VISA 4242 Aug", "VISA 4242 Sep", "VISA 4242 Oct"]) {
      await recordPayment(
        { membershipId: membership.id, amountCents: 29_500, method: "card", reference },
        staff.id,
        tx,
      );
    }
    const past = await createMemberVisit(tx, mariaHome, {
      today,
      scheduledDate: businessDayFrom(dayFromToday(-30), -1),
      startTime: "09:00",
      endTime: "10:45",
      assignedEmployeeId: dana.id,
      createdBy: staff.id,
      tasks: ["Replace porch light fixture"],
    });
    const cartridge = await addPart(
      {
        appointmentId: past.appointment.id,
        description: "Porch light mounting kit",
        costCents: 2_450,
      },
      staff.id,
      tx,
      false,
    );
    await markPartBought(cartridge.id, staff.id, tx);
    const pastTasks = await visitTasks(past.appointment.id, tx);
    await completeVisit(
      { id: staff.id, isEmployee: true },
      past.appointment.id,
      {
        minutesWorked: 90,
        outcomes: Object.fromEntries(pastTasks.map((t) => [t.id, "done" as const])),
      },
      // Completed as of the evening of the day the demo is made on.
      { database: tx, notify: false, now: zonedInstant(today, 17 * 60) },
    );
    const coming = await createMemberVisit(tx, mariaHome, {
      today,
      scheduledDate: comingDay,
      startTime: "09:00",
      endTime: "12:30",
      notes: "Bring a faucet cartridge for a Moen single-handle.",
      assignedEmployeeId: dana.id,
      createdBy: staff.id,
      tasks: [leak.title, "Check the water heater's relief valve"],
    });
    await createMemberVisit(tx, mariaHome, {
      today,
      scheduledDate: first,
      startTime: "09:00",
      endTime: "10:45",
      notes: "Maria works from home; knock, the bell is broken.",
      assignedEmployeeId: dana.id,
      createdBy: staff.id,
      tasks: [
        { description: gallery.title, requestId: gallery.id },
        { description: drywall.title, requestId: drywall.id },
      ],
    });
    await createAppointment(tx, jamesHome, {
      scheduledDate: first,
      startTime: "13:00",
      endTime: "15:00",
      assignedEmployeeId: dana.id,
      createdBy: staff.id,
      tasks: [{ description: gutters.title, requestId: gutters.id }],
    });
    await createAppointment(tx, jamesHome, {
      scheduledDate: second,
      startTime: "10:00",
      endTime: "11:00",
      assignedEmployeeId: dana.id,
      createdBy: staff.id,
      tasks: ["Test the smoke detectors"],
    });
    await addPart(
      {
        appointmentId: coming.appointment.id,
        description: "Water heater pressure relief valve",
        costCents: 14_000,
      },
      staff.id,
      tx,
      false,
    );

    // The leads, one in each state (issue 40, item 14), so the Leads tab and the funnel are at
    // work from the first start: Maria came through the home page's form and became a member;
    // Grace has a walk-thru booked with Dana; Marcus booked an intro call and was called; Olivia
    // wrote yesterday; Tom chose someone else.
    const at = (days: number, minutes: number) => zonedInstant(dayFromToday(days), minutes);
    const lead = async (input: {
      name: string;
      email: string;
      phone: string;
      zipCode: string;
      city: string;
      source: string;
      pageUrl: string;
      daysAgo: number;
      message: string;
      status: "new" | "contacted" | "walk_thru_booked" | "member" | "lost";
      extra?: Partial<typeof leads.$inferInsert>;
    }) => {
      const createdAt = at(-input.daysAgo, 10 * 60 + 15);
      const [row] = await tx
        .insert(leads)
        .values({
          email: input.email,
          name: input.name,
          phone: input.phone,
          zipCode: input.zipCode,
          city: input.city,
          pageUrl: input.pageUrl,
          source: input.source,
          status: input.status,
          lastEntryAt: createdAt,
          createdAt,
          ...input.extra,
        })
        .returning({ id: leads.id });
      await tx.insert(leadEntries).values({
        leadId: row!.id,
        name: input.name,
        email: input.email,
        zipCode: input.zipCode,
        phone: input.phone,
        message: input.message,
        formType: "contact",
        pageUrl: input.pageUrl,
        source: input.source,
        createdAt,
      });
      return row!.id;
    };
    await lead({
      name: "Maria Alvarez",
      email: DEMO_LOGINS[1].email,
      phone: "(404) 555-0181",
      zipCode: "30030",
      city: "Decatur",
      source: "/decatur",
      pageUrl: "/decatur",
      daysAgo: 110,
      message: "A dripping faucet, a gallery wall and a long list after that.",
      status: "member",
      extra: {
        customerId: maria.id,
        ownerId: staff.id,
        offerSentAt: at(-102, 11 * 60),
        memberSince: at(-100, 9 * 60),
      },
    });
    const grace = await lead({
      name: "Grace Park",
      email: "grace.park@example.com",
      phone: "(678) 555-0142",
      zipCode: "30338",
      city: "Dunwoody",
      source: "/dunwoody",
      pageUrl: "/dunwoody",
      daysAgo: 4,
      message: "New house, lots of small things: shelves, a loose railing, two ceiling fans.",
      status: "walk_thru_booked",
      extra: { ownerId: staff.id, notes: "Prefers afternoons." },
    });
    await tx.insert(appointments).values({
      kind: "walk_thru",
      leadId: grace,
      contactName: "Grace Park",
      contactEmail: "grace.park@example.com",
      address: "5 Dunwoody Club Dr, Dunwoody, GA 30338",
      assignedEmployeeId: dana.id,
      scheduledDate: second,
      startTime: "14:00",
      endTime: "14:45",
      createdBy: staff.id,
      createdAt: at(-3, 14 * 60),
    });
    const marcus = await lead({
      name: "Marcus Reed",
      email: "marcus.reed@example.com",
      phone: "(770) 555-0163",
      zipCode: "30350",
      city: "Sandy Springs",
      source: "home",
      pageUrl: "/",
      daysAgo: 9,
      message: "Is a deck repair covered? Some boards are soft.",
      status: "contacted",
      extra: { ownerId: staff.id, notes: "Called back; thinking it over, call again next week." },
    });
    await tx.insert(introCalls).values({
      leadId: marcus,
      name: "Marcus Reed",
      email: "marcus.reed@example.com",
      phone: "(770) 555-0163",
      startsAt: at(-8, 16 * 60),
      createdAt: at(-9, 10 * 60 + 20),
    });
    await lead({
      name: "Olivia Chen",
      email: "olivia.chen@example.com",
      phone: "(404) 555-0119",
      zipCode: "30306",
      city: "Atlanta",
      source: "home",
      pageUrl: "/",
      daysAgo: 1,
      message: "Older bungalow; the doors stick and two windows will not stay up.",
      status: "new",
    });
    await lead({
      name: "Tom Baker",
      email: "tom.baker@example.com",
      phone: "(770) 555-0178",
      zipCode: "30076",
      city: "Roswell",
      source: "/roswell",
      pageUrl: "/roswell",
      daysAgo: 24,
      message: "Looking for someone to build a fence.",
      status: "lost",
      extra: { ownerId: staff.id, lostReason: "Wanted a new fence built; not what we cover." },
    });

    // The partner network (ADR 088): a plumber, an electrician and an HVAC company.
    await tx.insert(specialists).values([
      {
        trade: "plumber",
        company: "Decatur Plumbing Co.",
        contactName: "Rosa Jimenez",
        phone: "(404) 555-0191",
        email: "rosa@decaturplumbing.example",
        licenseNumber: "MP-208714",
        notes: "New water lines, gas lines and water heaters. Answers the same day.",
        referralFeeCents: 5_000,
        createdBy: staff.id,
      },
      {
        trade: "electrician",
        company: "Peachtree Electric",
        contactName: "Ken Adams",
        phone: "(770) 555-0142",
        email: "ken@peachtreeelectric.example",
        licenseNumber: "EN-214409",
        notes: "New circuits and outlets, panels. Books a week out.",
        createdBy: staff.id,
      },
      {
        trade: "hvac",
        company: "Northside Heating & Air",
        contactName: "Priya Shah",
        phone: "(678) 555-0133",
        email: "service@northsidehvac.example",
        licenseNumber: "CR-110552",
        createdBy: staff.id,
      },
    ]);
  });
}
