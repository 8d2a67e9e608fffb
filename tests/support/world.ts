/**
 * A small world of people and rows for the authorization matrix and the security checks:
 * customers A and B (each with a home, requests, an appointment), an employee, and a visitor.
 * Every private string of A contains A's marker, of B B's marker, and employees' internal notes
 * the notes marker, so any answer can be searched for rows that are not the reader's.
 */
import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import type { Database } from "~/db/client.server";
import { addPart } from "~/features/memberships/parts.server";
import {
  createAppointment,
  createHome,
  createMembership,
  createMemberVisit,
  createServiceRequest,
  createUser,
} from "../../server/seed/factories";
import { HttpClient } from "./http";

export const WORLD_PASSWORD = "World-Pass-2026!";

/** `employee` is office staff; `handyman` an employee with the handyman's role (ADR 047). */
export type Actor = "visitor" | "customerA" | "customerB" | "employee" | "handyman";
export const ACTORS: Actor[] = ["visitor", "customerA", "customerB", "employee", "handyman"];
export type Owner = "A" | "B";

export type CustomerFixture = {
  id: string;
  email: string;
  marker: string;
  homeId: string;
  requestIds: string[];
  completedRequestId: string;
  appointmentId: string;
  /** One photo on the first request, uploaded through the app. */
  photoIds: string[];
  /**
   * A Complete membership with a visit yesterday, a part waiting for approval (with a receipt
   * photo) and one approved.
   */
  membershipId: string;
  memberVisitId: string;
  pendingPartId: string;
  approvedPartId: string;
};

export type World = {
  tag: string;
  markers: { A: string; B: string; notes: string };
  A: CustomerFixture;
  B: CustomerFixture;
  employee: { id: string; email: string };
  /** A handyman with no visit in the world: every customer's data is someone else's to them. */
  handyman: { id: string; email: string };
  clients: Record<Actor, HttpClient>;
  customer(owner: Owner): CustomerFixture;
  /** The owner of an actor's own objects; employees and visitors own none. */
  ownerOf(actor: Actor): Owner | null;
};

function letters(count: number) {
  return Array.from(crypto.randomBytes(count), (b) => String.fromCharCode(97 + (b % 26))).join("");
}

/** Business tomorrow-ish date, as YYYY-MM-DD. */
function inDays(days: number) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function customer(db: Database, marker: string, notesMarker: string, letter: Owner) {
  const account = await createUser(db, {
    email: `${marker}@example.com`,
    password: WORLD_PASSWORD,
    firstName: `Cust${letter}`,
    lastName: marker,
    phone: "(404) 555-0199",
  });
  const home = await createHome(db, account.id, {
    address: `${marker} Street 1`,
    city: "Decatur",
    state: "GA",
    zipCode: "30030",
    propertyNotes: `Gate code of ${marker}`,
  });
  const first = await createServiceRequest(db, home, {
    title: `Leaky faucet ${marker}`,
    description: `Description of ${marker}`,
    priority: "next",
    employeeNotes: `Internal ${notesMarker} about ${letter}`,
  });
  const second = await createServiceRequest(db, home, {
    title: `Squeaky door ${marker}`,
    priority: "later",
    position: 1,
  });
  const third = await createServiceRequest(db, home, {
    title: `Loose railing ${marker}`,
    priority: "later",
    position: 2,
  });
  const done = await createServiceRequest(db, home, {
    title: `Painted fence ${marker}`,
    status: "complete",
    priority: "later",
    position: 3,
  });
  const appointment = await createAppointment(db, home, {
    scheduledDate: inDays(7),
    startTime: "09:00",
    endTime: "11:00",
    notes: `Bring a ladder ${marker}`,
    tasks: [`Task for ${marker}`],
  });
  const membership = await createMembership(db, account.id, { startDate: inDays(-10) });
  const visit = await createMemberVisit(db, home, {
    scheduledDate: inDays(-1),
    startTime: "09:00",
    endTime: "10:45",
    tasks: [`Member task for ${marker}`],
  });
  const part = (description: string, costCents: number) =>
    addPart({ appointmentId: visit.appointment.id, description, costCents }, null, db, false);
  const pending = await part(`Water heater valve ${marker}`, 14_000);
  const approved = await part(`Washers ${marker}`, 350);
  return {
    id: account.id,
    email: account.email,
    marker,
    homeId: home.id,
    requestIds: [first.id, second.id, third.id],
    completedRequestId: done.id,
    appointmentId: appointment.id,
    photoIds: [] as string[],
    membershipId: membership.id,
    memberVisitId: visit.appointment.id,
    pendingPartId: pending.id,
    approvedPartId: approved.id,
  } satisfies CustomerFixture;
}

/** Creates the world in `db` and signs its people in at `base` (each from its own address). */
export async function buildWorld(db: Database, base: string): Promise<World> {
  const tag = letters(10);
  const markers = { A: `mka${tag}`, B: `mkb${tag}`, notes: `mkn${tag}` };
  const A = await customer(db, markers.A, markers.notes, "A");
  const B = await customer(db, markers.B, markers.notes, "B");
  const staff = await createUser(db, {
    email: `staff${tag}@example.com`,
    password: WORLD_PASSWORD,
    firstName: "Jordan",
    lastName: "Staff",
    isEmployee: true,
  });
  const handyman = await createUser(db, {
    email: `handyman${tag}@example.com`,
    password: WORLD_PASSWORD,
    firstName: "Casey",
    lastName: "Handyman",
    isEmployee: true,
    staffRole: "handyman",
  });
  const clients = {
    visitor: new HttpClient(base),
    customerA: new HttpClient(base),
    customerB: new HttpClient(base),
    employee: new HttpClient(base),
    handyman: new HttpClient(base),
  } satisfies Record<Actor, HttpClient>;
  for (const [actor, email] of [
    ["customerA", A.email],
    ["customerB", B.email],
    ["employee", staff.email],
    ["handyman", handyman.email],
  ] as const) {
    const response = await clients[actor].postJson("/api/auth/sign-in/email", {
      email,
      password: WORLD_PASSWORD,
    });
    if (response.status !== 200)
      throw new Error(`sign-in of ${actor}: ${response.status} ${await response.text()}`);
  }
  for (const [actor, fixture] of [
    ["customerA", A],
    ["customerB", B],
  ] as const) {
    fixture.photoIds.push(await uploadPhoto(clients[actor], fixture.requestIds[0]));
    // The pending part's receipt photo: the files of that photo, stored by the app.
    await db.execute(
      sql`update membership_parts set receipt_path = p.file_path, receipt_thumbnail_path = p.thumbnail_path from request_photos p where p.id = ${fixture.photoIds[0]} and membership_parts.id = ${fixture.pendingPartId}`,
    );
  }
  return {
    tag,
    markers,
    A,
    B,
    employee: { id: staff.id, email: staff.email },
    handyman: { id: handyman.id, email: handyman.email },
    clients,
    customer: (owner) => (owner === "A" ? A : B),
    ownerOf: (actor) => (actor === "customerA" ? "A" : actor === "customerB" ? "B" : null),
  };
}

let photoBytes: Buffer | undefined;

/** A small real JPEG (the server checks magic bytes and re-encodes it). */
export async function samplePhoto() {
  photoBytes ??= await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 120, b: 40 } },
  })
    .jpeg()
    .toBuffer();
  return photoBytes;
}

export async function photoForm() {
  const form = new FormData();
  const bytes = new Uint8Array(await samplePhoto());
  form.append("photos", new Blob([bytes], { type: "image/jpeg" }), "porch.jpg");
  return form;
}

/** Uploads one photo to a request through the app, as the client's customer; its id. */
export async function uploadPhoto(client: HttpClient, requestId: string) {
  const response = await client.request(`/dashboard/requests/${requestId}/photos`, {
    method: "POST",
    body: await photoForm(),
    headers: { accept: "application/json" },
  });
  const body = (await response.json()) as { saved?: { id: string }[] };
  if (response.status !== 200 || !body.saved?.[0])
    throw new Error(`photo upload: ${response.status} ${JSON.stringify(body)}`);
  return body.saved[0].id;
}

/** Markers that must not appear in what `actor` is shown. */
export function foreignMarkers(world: World, actor: Actor): string[] {
  switch (actor) {
    case "visitor":
      return [world.markers.A, world.markers.B, world.markers.notes];
    case "customerA":
      return [world.markers.B, world.markers.notes];
    case "customerB":
      return [world.markers.A, world.markers.notes];
    case "employee":
      return [];
    case "handyman":
      return [world.markers.A, world.markers.B, world.markers.notes];
  }
}

export type Snapshot = Record<"A" | "B" | "employee", string>;

/**
 * Everything stored about each of the world's people, as JSON per person: a refused request
 * must leave all of it as it was (sessions included: a refused sign-in must not create one),
 * and an allowed one must leave everyone else's as it was.
 */
export async function snapshot(db: Database, world: World): Promise<Snapshot> {
  const people = { A: world.A.id, B: world.B.id, employee: world.employee.id };
  const entries = await Promise.all(
    Object.entries(people).map(async ([who, id]) => {
      const result = await db.execute(sql`
        select json_build_object(
          'user', (select json_agg(t) from "user" t where t.id = ${id}),
          'account', (select json_agg(t order by t.id) from account t where t.user_id = ${id}),
          'session', (select json_agg(t.id order by t.id) from session t where t.user_id = ${id}),
          'two_factor', (select json_agg(t order by t.id) from two_factor t where t.user_id = ${id}),
          'profile', (select json_agg(t) from profiles t where t.user_id = ${id}),
          'homes', (select json_agg(t order by t.id) from homes t where t.customer_id = ${id}),
          'requests', (select json_agg(t order by t.id) from service_requests t
                       where t.customer_id = ${id}),
          'photos', (select json_agg(p order by p.id) from request_photos p
                     join service_requests r on r.id = p.request_id where r.customer_id = ${id}),
          'appointments', (select json_agg(t order by t.id) from appointments t
                           where t.customer_id = ${id} or t.assigned_employee_id = ${id}),
          'tasks', (select json_agg(k order by k.id) from appointment_tasks k
                    join appointments a on a.id = k.appointment_id where a.customer_id = ${id}),
          'memberships', (select json_agg(t order by t.id) from memberships t
                          where t.customer_id = ${id}),
          'money', (select json_agg(l order by l.id) from membership_money_ledger l
                    join memberships m on m.id = l.membership_id where m.customer_id = ${id}),
          'minutes', (select json_agg(l order by l.id) from membership_minutes_ledger l
                      join memberships m on m.id = l.membership_id where m.customer_id = ${id}),
          'visits', (select json_agg(v order by v.appointment_id) from membership_visits v
                     join memberships m on m.id = v.membership_id where m.customer_id = ${id}),
          'parts', (select json_agg(p order by p.id) from membership_parts p
                    join memberships m on m.id = p.membership_id where m.customer_id = ${id})
        ) as state`);
      const rows = (result as unknown as { rows: { state: unknown }[] }).rows;
      return [who, JSON.stringify(rows[0].state)] as const;
    }),
  );
  return Object.fromEntries(entries) as Snapshot;
}

/** Who, of the world's people, has rows that differ between two snapshots. */
export function changedPeople(before: Snapshot, after: Snapshot) {
  return (Object.keys(before) as (keyof Snapshot)[]).filter((who) => before[who] !== after[who]);
}
