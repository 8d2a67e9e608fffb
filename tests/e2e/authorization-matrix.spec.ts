import { eq } from "drizzle-orm";
import { appointmentTasks, homeAppliances, leads, requestPhotos } from "~/db/schema";
import { addDays, businessToday } from "~/lib/business-calendar";
import { appRoutes, fillPattern, type AppRoute } from "../support/route-table";
import { BASE_URL } from "../support/ports";
import {
  ACTORS,
  buildWorld,
  changedPeople,
  foreignMarkers,
  photoForm,
  samplePhoto,
  snapshot,
  uploadPhoto,
  type Actor,
  type Owner,
  type World,
} from "../support/world";
import { createServiceRequest } from "../../server/seed/factories";
import { addPart } from "~/features/memberships/parts.server";
import { newActionKey } from "~/lib/action-keys.server";
import { e2eDb, expect, test } from "./fixtures";
import { newActionKey as formKey } from "~/lib/action-keys.server";

/*
 * The authorization matrix: every route of app/routes.ts (page loaders, actions, resource
 * routes) × visitor, customer A, customer B, office staff and a handyman (ADR 047), on their own
 * and on others' objects.
 * Generated from the route table: a route without an entry below fails the test. For every
 * answer it checks the outcome (allowed, redirected, refused), that no row of someone else
 * appears in it (A's, B's and employees' internal notes carry markers), and, for every post,
 * that nothing of anyone else changed (nothing at all when refused).
 */

test.describe.configure({ mode: "serial" });

/** What an actor should get. */
type Outcome =
  | "ok" // 2xx
  | "to-auth" // redirect to /auth
  | "to-dashboard"
  | "to-employee"
  | "denied" // a 3xx or 4xx: never 2xx, never 5xx
  | "not-found"; // 404

type LoaderRule = {
  /** The objects to ask for: none (one URL), or each customer's own (and so others'). */
  objects?: (
    world: World,
    owner: Owner,
  ) => Promise<Record<string, string>> | Record<string, string>;
  expect: (actor: Actor, owner?: Owner) => Outcome;
  /** URLs with their own rules (sub-paths of api/auth/*, query strings naming objects). */
  paths?: (world: World) => { path: string; expect: (actor: Actor) => Outcome }[];
};

type ActionCase = {
  name: string;
  /** Objects of `owner` to act on (may create fresh ones, e.g. for deletes). */
  objects?: (
    world: World,
    owner: Owner,
  ) => Promise<Record<string, string>> | Record<string, string>;
  /** The body a real form would post. */
  body: (world: World, owner: Owner | undefined) => Record<string, string>;
  /** A multipart body instead (photo uploads). */
  multipart?: (world: World, owner: Owner | undefined) => Promise<FormData>;
  json?: boolean;
  /** Post as the page's scripts do (Accept: application/json): answers carry real statuses. */
  script?: boolean;
  /** For resource routes with a splat (api/auth/*): the sub-path. */
  splat?: string;
  expect: (actor: Actor, owner?: Owner) => Outcome;
  /** Post this case right after the cases of that route id (the member's cancel after staff's). */
  after?: string;
};

type Entry = { layout: true } | { loader?: LoaderRule; actions?: ActionCase[]; noAction?: string };

const everyone = (outcome: Outcome) => () => outcome;
/** Each visit's tasks marked 'Done', as the finishing form posts them (read before the post). */
const taskOutcomes = new Map<string, Record<string, string>>();
/** A part waiting for its owner's approval, fresh for each post (approving it changes it). */
const freshParts = new Map<Owner, string>();
async function freshPendingPart(world: World, owner: Owner) {
  const customer = world.customer(owner);
  const part = await addPart(
    {
      appointmentId: customer.memberVisitId,
      description: `Valve ${customer.marker}`,
      costCents: 14_000,
    },
    null,
    e2eDb(),
    false,
  );
  freshParts.set(owner, part.id);
  return { owner };
}
/**
 * The handyman (ADR 047) gets what office staff get, except where office staff are let in: an
 * office page sends a handyman to 'Today' and an office action answers 403 (both "denied").
 * Pages open to every employee say `handyman` themselves.
 */
const handymanFrom = (employee: Outcome): Outcome => (employee === "ok" ? "denied" : employee);
const byActor =
  (outcomes: Record<Exclude<Actor, "handyman">, Outcome> & { handyman?: Outcome }) =>
  (actor: Actor) =>
    actor === "handyman" ? (outcomes.handyman ?? handymanFrom(outcomes.employee)) : outcomes[actor];
/** Customers on their own objects get `own`; on the other customer's, `foreign`. */
function ownership(
  own: Outcome,
  foreign: Outcome,
  others: { visitor: Outcome; employee: Outcome },
) {
  return (actor: Actor, owner?: Owner) => {
    if (actor === "visitor" || actor === "employee") return others[actor];
    if (actor === "handyman") return handymanFrom(others.employee);
    return world.ownerOf(actor) === owner ? own : foreign;
  };
}

/** An appliance with a label photo per owner (the stored photo of the owner's request). */
const worldAppliances = new Map<string, string>();
async function applianceWithLabel(world: World, owner: Owner) {
  const key = `${world.tag}-${owner}`;
  const known = worldAppliances.get(key);
  if (known) return known;
  const [photo] = await e2eDb()
    .select()
    .from(requestPhotos)
    .where(eq(requestPhotos.id, world.customer(owner).photoIds[0]!));
  const [row] = await e2eDb()
    .insert(homeAppliances)
    .values({
      homeId: world.customer(owner).homeId,
      type: "water_heater",
      labelPhotoPath: photo!.filePath,
      labelThumbnailPath: photo!.thumbnailPath,
    })
    .returning({ id: homeAppliances.id });
  worldAppliances.set(key, row!.id);
  return row!.id;
}

/** A lead per owner (a row of leads), for the staff-only lead page. */
const worldLeads = new Map<string, string>();
async function worldLead(world: World, owner: Owner) {
  const key = `${world.tag}-${owner}`;
  const known = worldLeads.get(key);
  if (known) return known;
  const [row] = await e2eDb()
    .insert(leads)
    .values({
      email: `lead-${key}@example.com`.toLowerCase(),
      name: `Lead ${owner}`,
      source: "home",
    })
    .returning({ id: leads.id });
  worldLeads.set(key, row.id);
  return row.id;
}

/** A new open request of `owner`'s, for actions that destroy what they act on. */
async function freshRequest(world: World, owner: Owner) {
  const customer = world.customer(owner);
  const row = await createServiceRequest(
    e2eDb(),
    { id: customer.homeId, customerId: customer.id },
    { title: `Throwaway ${customer.marker}`, priority: "later", position: 50 },
  );
  return row.id;
}

const PUBLIC_PAGE: Entry = { loader: { expect: everyone("ok") } };
const staffOnly = byActor({
  visitor: "denied",
  customerA: "denied",
  customerB: "denied",
  employee: "ok",
});

/**
 * One entry per route id (or per module file, for modules serving several routes). Keep this
 * list in step with app/routes.ts: the test fails on a route without an entry.
 */
const MATRIX: Record<string, Entry> = {
  // Its loader answers nothing (it lets the server render the public pages, ADR 030).
  "routes/public-layout": PUBLIC_PAGE,
  // The lead forms and the intro-call booking are for everyone; bad input is refused alike and
  // stores nothing (valid posts are covered, with their rate limits, by leads/book-call specs).
  "routes/home": {
    ...PUBLIC_PAGE,
    actions: [
      {
        name: "a lead with an invalid zip code",
        body: () => ({ name: "Matrix Visitor", zipCode: "1", email: "matrix@example.com" }),
        expect: everyone("denied"),
      },
    ],
  },
  "routes/book-call": {
    ...PUBLIC_PAGE,
    actions: [
      {
        name: "an intro call at a time that is not offered",
        body: () => ({
          name: "Matrix Visitor",
          email: "matrix@example.com",
          phone: "404-555-0199",
          startsAt: "2020-01-01T13:00:00.000Z",
        }),
        expect: everyone("denied"),
      },
    ],
  },
  "routes/city.tsx": {
    ...PUBLIC_PAGE,
    actions: [
      {
        name: "a city lead without a phone number",
        body: () => ({ name: "Matrix Visitor", email: "matrix@example.com" }),
        expect: everyone("denied"),
      },
    ],
  },
  "routes/book-call.slots": { loader: { expect: everyone("ok") } },
  // Twilio's webhooks: a signature proves the sender; a session proves nothing there.
  "routes/webhooks.twilio.sms": {
    loader: { expect: everyone("denied") },
    actions: [
      {
        name: "a STOP reply without Twilio's signature (refused, nothing stored)",
        body: () => ({ MessageSid: "SMmatrix1", From: "+14045550181", Body: "STOP" }),
        expect: everyone("denied"),
      },
    ],
  },
  "routes/webhooks.twilio.status": {
    loader: { expect: everyone("denied") },
    actions: [
      {
        name: "a delivery report without Twilio's signature",
        body: () => ({ MessageSid: "SMmatrix2", MessageStatus: "failed" }),
        expect: everyone("denied"),
      },
    ],
  },
  // Stripe's webhook: only its signature (Stripe-Signature on the raw body) is believed.
  "routes/webhooks.stripe": {
    loader: { expect: everyone("denied") },
    actions: [
      {
        name: "an event without Stripe's signature (400, nothing stored)",
        body: () => ({ id: "evt_matrix", type: "invoice.paid" }),
        expect: everyone("denied"),
      },
    ],
  },
  "routes/sitemap.xml": { loader: { expect: everyone("ok") } },
  "routes/robots.txt": { loader: { expect: everyone("ok") } },
  "routes/not-found": { loader: { expect: everyone("not-found") } },
  "routes/auth": {
    loader: {
      expect: byActor({
        visitor: "ok",
        customerA: "to-dashboard",
        customerB: "to-dashboard",
        employee: "to-employee",
      }),
    },
    actions: [
      {
        name: "property setup (only for a signed-in customer without a home)",
        body: () => ({
          intent: "property",
          address: "1 Matrix Way",
          city: "Atlanta",
          state: "GA",
          zipCode: "30303",
        }),
        // A and B already have a home: nothing is created, nothing of anyone else is touched.
        expect: byActor({
          visitor: "denied",
          customerA: "to-dashboard",
          customerB: "to-dashboard",
          employee: "to-employee",
        }),
      },
      {
        name: "sign-in with someone else's e-mail and a wrong password",
        body: (world) => ({ intent: "sign-in", email: world.B.email, password: "Not-Bs-Pass-1!" }),
        expect: everyone("denied"),
      },
    ],
  },
  "routes/dashboard": {
    loader: {
      expect: byActor({
        visitor: "to-auth",
        customerA: "ok",
        customerB: "ok",
        employee: "to-employee",
      }),
    },
    // The member's own membership forms (ADR 033: the page showing the tab answers them): always
    // on the session's own membership (a part of the other member's is not theirs to answer:
    // refused, and the snapshot proves nothing of theirs changes).
    actions: [
      {
        name: "approve a part",
        objects: freshPendingPart,
        body: (world, owner) => ({ intent: "approve-part", partId: freshParts.get(owner!)! }),
        expect: ownership("ok", "denied", { visitor: "denied", employee: "denied" }),
      },
      {
        name: "decline a part",
        objects: freshPendingPart,
        body: (world, owner) => ({ intent: "decline-part", partId: freshParts.get(owner!)! }),
        expect: ownership("ok", "denied", { visitor: "denied", employee: "denied" }),
      },
      {
        // After staff's membership cases, which need the membership a cancel ends: staff's own
        // cancel has ended it by then, so the member's is refused and changes nothing.
        name: "cancel the membership (always one's own; already canceled by staff)",
        after: "routes/employee.customers.$customerId.visit-spend",
        body: () => ({ intent: "cancel", key: formKey() }),
        expect: everyone("denied"),
      },
    ],
  },
  "routes/employee": {
    loader: {
      expect: byActor({
        visitor: "to-auth",
        customerA: "to-dashboard",
        customerB: "to-dashboard",
        employee: "ok",
      }),
    },
  },
  "routes/employee.requests.$requestId": {
    // GET only sends a browser without JavaScript back to the dialog on /employee.
    loader: {
      objects: (world, owner) => ({ requestId: world.customer(owner).requestIds[0] }),
      expect: everyone("to-employee"),
    },
    actions: [
      {
        name: "change the status",
        objects: (world, owner) => ({ requestId: world.customer(owner).requestIds[0] }),
        body: () => ({ intent: "status", status: "reviewed" }),
        expect: byActor({
          visitor: "denied",
          customerA: "denied",
          customerB: "denied",
          employee: "ok",
        }),
      },
      {
        name: "write internal notes",
        objects: (world, owner) => ({ requestId: world.customer(owner).requestIds[1] }),
        body: (world) => ({ intent: "notes", notes: `Checked ${world.markers.notes}` }),
        expect: byActor({
          visitor: "denied",
          customerA: "denied",
          customerB: "denied",
          employee: "ok",
        }),
      },
    ],
  },
  "routes/employee.appointments": {
    actions: [
      {
        name: "create an appointment for a customer at their home",
        objects: (world, owner) => ({ owner }),
        body: (world, owner) => appointmentForm(world, owner!, owner!),
        expect: byActor({
          visitor: "denied",
          customerA: "denied",
          customerB: "denied",
          employee: "ok",
        }),
      },
      {
        name: "create an appointment for one customer at the other's home",
        objects: (world, owner) => ({ owner }),
        body: (world, owner) => appointmentForm(world, owner!, owner === "A" ? "B" : "A"),
        expect: everyone("denied"),
      },
      {
        name: "plan another customer's request as a task",
        objects: (world, owner) => ({ owner }),
        body: (world, owner) => ({
          ...appointmentForm(world, owner!, owner!),
          "tasks[0].description": "Someone else's request",
          "tasks[0].serviceRequestId": world.customer(owner === "A" ? "B" : "A").requestIds[1],
        }),
        expect: everyone("denied"),
      },
      {
        name: "create an appointment for an employee",
        body: (world) => ({
          ...appointmentForm(world, "A", "A"),
          customerId: world.employee.id,
        }),
        expect: everyone("denied"),
      },
    ],
  },
  "routes/employee.profile-photo": {
    actions: [
      {
        name: "upload a profile photo",
        script: true,
        body: () => ({}),
        multipart: async () => {
          const form = new FormData();
          const bytes = new Uint8Array(await samplePhoto());
          form.append("photo", new Blob([bytes], { type: "image/jpeg" }), "me.jpg");
          return form;
        },
        expect: byActor({
          visitor: "denied",
          customerA: "denied",
          customerB: "denied",
          employee: "ok",
          handyman: "ok",
        }),
      },
    ],
  },
  // Employees' profile photos are public; a name that is not a profile photo is not found.
  "routes/profile-photos.$userId.$file": {
    loader: {
      paths: (world) => [
        { path: `/profile-photos/${world.A.id}/profile.webp`, expect: everyone("not-found") },
        { path: `/profile-photos/${world.A.id}/notes.txt`, expect: everyone("not-found") },
      ],
      expect: everyone("not-found"),
    },
  },
  "routes/employee.customer-options": {
    loader: {
      paths: (world) => [
        {
          path: `/employee/customer-options?customerId=${world.A.id}`,
          expect: byActor({
            visitor: "denied",
            customerA: "denied",
            customerB: "denied",
            employee: "ok",
          }),
        },
        {
          path: `/employee/customer-options?q=${world.markers.B}`,
          expect: byActor({
            visitor: "denied",
            customerA: "denied",
            customerB: "denied",
            employee: "ok",
          }),
        },
      ],
      expect: everyone("denied"),
    },
  },
  "routes/dashboard.requests": {
    actions: [
      {
        name: "create a request (at one's own home: there is no other choice)",
        script: true,
        body: (world) => ({ title: `Matrix request ${world.tag}`, priority: "later" }),
        expect: byActor({
          visitor: "denied",
          customerA: "ok",
          customerB: "ok",
          employee: "denied",
        }),
      },
    ],
  },
  "routes/dashboard.requests.$requestId": {
    actions: [
      {
        name: "update title, description and priority",
        script: true,
        objects: (world, owner) => ({ requestId: world.customer(owner).requestIds[1] }),
        body: (world) => ({
          intent: "update",
          title: `Edited ${world.tag}`,
          description: "Edited by the matrix",
          priority: "later",
        }),
        expect: ownership("ok", "denied", { visitor: "denied", employee: "denied" }),
      },
      {
        name: "move down within its priority group",
        script: true,
        objects: (world, owner) => ({ requestId: world.customer(owner).requestIds[1] }),
        body: () => ({ intent: "move-down" }),
        expect: ownership("ok", "denied", { visitor: "denied", employee: "denied" }),
      },
      {
        name: "delete (a fresh request each time)",
        script: true,
        objects: async (world, owner) => ({ requestId: await freshRequest(world, owner) }),
        body: () => ({ intent: "delete" }),
        expect: ownership("ok", "denied", { visitor: "denied", employee: "denied" }),
      },
    ],
  },
  "routes/dashboard.requests.$requestId.photos": {
    actions: [
      {
        name: "upload a photo",
        script: true,
        objects: (world, owner) => ({ requestId: world.customer(owner).requestIds[2] }),
        body: () => ({}),
        multipart: () => photoForm(),
        expect: ownership("ok", "denied", { visitor: "denied", employee: "denied" }),
      },
    ],
  },
  "routes/dashboard.requests.$requestId.photos.$photoId": {
    actions: [
      {
        name: "remove a photo (a fresh one each time)",
        script: true,
        objects: async (world, owner) => {
          const requestId = world.customer(owner).requestIds[2];
          const client = world.clients[owner === "A" ? "customerA" : "customerB"];
          return { requestId, photoId: await uploadPhoto(client, requestId) };
        },
        body: () => ({}),
        expect: ownership("ok", "denied", { visitor: "denied", employee: "denied" }),
      },
    ],
  },
  "routes/dashboard.appointments.$visitId.calendar": {
    loader: {
      objects: (world, owner) => ({ visitId: world.customer(owner).appointmentId }),
      expect: ownership("ok", "denied", { visitor: "denied", employee: "denied" }),
    },
  },
  "routes/employee.availability": {
    loader: {
      expect: byActor({
        visitor: "to-auth",
        customerA: "to-dashboard",
        customerB: "to-dashboard",
        employee: "ok",
        handyman: "ok",
      }),
    },
    actions: [
      {
        name: "time off without a date",
        body: () => ({ intent: "time-off", startDate: "not a date" }),
        expect: everyone("denied"),
      },
    ],
  },
  "routes/employee.schedule": {
    loader: {
      expect: byActor({
        visitor: "to-auth",
        customerA: "to-dashboard",
        customerB: "to-dashboard",
        employee: "ok",
      }),
    },
    noAction: "a read-only week view",
  },
  // The owner's numbers (issue 30): office staff only, the page and each table's CSV.
  "routes/employee.reports": {
    loader: {
      expect: byActor({
        visitor: "to-auth",
        customerA: "to-dashboard",
        customerB: "to-dashboard",
        employee: "ok",
      }),
    },
    noAction: "a read-only page (its period picker is a GET form)",
  },
  // What the outbox gave up on (issue 39): office staff only. Retrying what is not waiting
  // there (an unknown id) is refused to everyone; staff get 409, others 401/403.
  "routes/employee.failed-deliveries": {
    loader: {
      expect: byActor({
        visitor: "to-auth",
        customerA: "to-dashboard",
        customerB: "to-dashboard",
        employee: "ok",
      }),
    },
    actions: [
      {
        name: "retry of nothing waiting",
        body: () => ({ intent: "retry", id: "00000000-0000-4000-8000-000000000000" }),
        expect: everyone("denied"),
      },
    ],
  },
  // The office's handymen and specialists (issue 41): office staff only. A reassignment of
  // nobody, and a referral status of an unknown referral, are refused to everyone.
  "routes/employee.handymen": {
    loader: {
      expect: byActor({
        visitor: "to-auth",
        customerA: "to-dashboard",
        customerB: "to-dashboard",
        employee: "ok",
      }),
    },
    actions: [
      {
        name: "reassign without a member",
        body: () => ({ intent: "reassign", customerId: "", handymanId: "" }),
        expect: everyone("denied"),
      },
    ],
  },
  "routes/employee.specialists": {
    loader: {
      expect: byActor({
        visitor: "to-auth",
        customerA: "to-dashboard",
        customerB: "to-dashboard",
        employee: "ok",
      }),
    },
    actions: [
      {
        name: "status of an unknown referral",
        body: () => ({
          intent: "status",
          referralId: "00000000-0000-4000-8000-000000000000",
          status: "done",
        }),
        expect: everyone("denied"),
      },
    ],
  },
  "routes/employee.reports.csv.$table": {
    loader: { objects: () => ({ table: "members-by-month" }), expect: staffOnly },
  },
  // The handyman's day (ADR 047): every employee's own visits; each action acts on the
  // asker's own visit only, so a visit nobody is assigned to is refused to everyone.
  "routes/employee.today": {
    loader: {
      expect: byActor({
        visitor: "to-auth",
        customerA: "to-dashboard",
        customerB: "to-dashboard",
        employee: "ok",
        handyman: "ok",
      }),
    },
    actions: [
      {
        name: "'On my way' for a visit that is not the asker's",
        body: () => ({
          intent: "on-my-way",
          appointmentId: "00000000-0000-4000-8000-000000000000",
          key: "aaaaaaaaaaaaaaaaaaaaaaaa",
        }),
        expect: everyone("denied"),
      },
    ],
  },
  // Leads are staff-only (issue 29, ADR 060): a lead's page and its actions, and a customer's lead.
  "routes/employee.leads.$leadId": {
    loader: {
      objects: async (world, owner) => ({ leadId: await worldLead(world, owner) }),
      expect: byActor({
        visitor: "to-auth",
        customerA: "to-dashboard",
        customerB: "to-dashboard",
        employee: "ok",
      }),
    },
    actions: [
      {
        name: "mark a lead 'Lost' without a reason",
        objects: async (world, owner) => ({ leadId: await worldLead(world, owner) }),
        body: () => ({ intent: "update", status: "lost", lostReason: "" }),
        expect: everyone("denied"),
      },
      {
        name: "book a walk-thru at a time that is not offered",
        objects: async (world, owner) => ({ leadId: await worldLead(world, owner) }),
        body: () => ({
          intent: "book-walk-thru",
          date: "2020-01-01",
          startMinute: "540",
          name: "Matrix Lead",
          address: "1 Matrix Way",
        }),
        expect: everyone("denied"),
      },
      {
        name: "cancel a walk-thru that is not the lead's",
        objects: async (world, owner) => ({ leadId: await worldLead(world, owner) }),
        body: () => ({
          intent: "cancel-walk-thru",
          appointmentId: "00000000-0000-4000-8000-000000000000",
        }),
        expect: everyone("denied"),
      },
    ],
  },
  "routes/employee.customers.$customerId.lead": {
    loader: {
      objects: (world, owner) => ({ customerId: world.customer(owner).id }),
      expect: byActor({
        visitor: "to-auth",
        customerA: "to-dashboard",
        customerB: "to-dashboard",
        employee: "to-employee",
      }),
    },
    actions: [
      {
        name: "open a customer's lead",
        objects: (world, owner) => ({ customerId: world.customer(owner).id }),
        body: () => ({}),
        expect: byActor({
          visitor: "denied",
          customerA: "denied",
          customerB: "denied",
          employee: "to-employee",
          // The office's action: a handyman is answered 403 (ADR 047).
          handyman: "denied",
        }),
      },
    ],
  },
  // A signed-in customer books their own free walk-thru (ADR 061).
  "routes/dashboard.walk-thru": {
    loader: {
      expect: byActor({
        visitor: "to-auth",
        customerA: "ok",
        customerB: "ok",
        employee: "to-employee",
      }),
    },
    actions: [
      {
        name: "book a walk-thru without a time",
        body: () => ({ name: "Matrix Customer", address: "1 Matrix Way" }),
        expect: everyone("denied"),
      },
    ],
  },
  // Members book, move and cancel their own visits (ADR 017).
  "routes/dashboard.book": {
    loader: {
      expect: byActor({
        visitor: "to-auth",
        customerA: "ok",
        customerB: "ok",
        employee: "to-employee",
      }),
    },
    actions: [
      {
        name: "book a visit without a block, day or time",
        body: () => ({ task: "00000000-0000-4000-8000-000000000000" }),
        expect: everyone("denied"),
      },
    ],
  },
  "routes/dashboard.visits.$visitId": {
    loader: {
      objects: (world, owner) => ({ visitId: world.customer(owner).appointmentId }),
      expect: ownership("ok", "not-found", { visitor: "to-auth", employee: "ok" }),
    },
    actions: [
      {
        name: "move a visit to a day that is not offered",
        objects: (world, owner) => ({ visitId: world.customer(owner).appointmentId }),
        body: () => ({ intent: "move", date: "2020-01-01", start: "540|" }),
        expect: everyone("denied"),
      },
    ],
  },
  "routes/request-photos.$photoId": {
    loader: {
      objects: (world, owner) => ({ photoId: world.customer(owner).photoIds[0], variant: "full" }),
      expect: ownership("ok", "denied", { visitor: "denied", employee: "ok" }),
    },
  },
  // The home's record (ADR 087): the member's own home, the office's every home; a handyman
  // only the homes of the day's visits (the world's has none).
  "routes/homes.$homeId": {
    loader: {
      objects: (world, owner) => ({ homeId: world.customer(owner).homeId }),
      expect: everyone("not-found"),
    },
    actions: [
      {
        name: "add an appliance",
        script: true,
        objects: (world, owner) => ({ homeId: world.customer(owner).homeId }),
        body: (world) => ({
          intent: "add-appliance",
          key: formKey(),
          type: "dishwasher",
          brand: `Matrix ${world.tag}`,
        }),
        expect: ownership("ok", "not-found", { visitor: "denied", employee: "ok" }),
      },
      {
        name: "draw the plan (the office only)",
        script: true,
        objects: (world, owner) => ({ homeId: world.customer(owner).homeId }),
        body: () => ({ intent: "draw-plan" }),
        expect: (actor, owner) =>
          actor === "employee"
            ? "ok"
            : actor === "customerA" || actor === "customerB"
              ? world.ownerOf(actor) === owner
                ? "denied"
                : "not-found"
              : "denied",
      },
    ],
  },
  "routes/homes.$homeId.label": {
    loader: {
      objects: (world, owner) => ({ homeId: world.customer(owner).homeId }),
      expect: everyone("not-found"),
    },
    actions: [
      {
        name: "read a label photo",
        script: true,
        objects: (world, owner) => ({ homeId: world.customer(owner).homeId }),
        body: () => ({}),
        multipart: () => photoForm(),
        expect: ownership("ok", "not-found", { visitor: "denied", employee: "ok" }),
      },
    ],
  },
  "routes/homes.$homeId.appliances.$applianceId.label": {
    loader: {
      objects: async (world, owner) => ({
        homeId: world.customer(owner).homeId,
        applianceId: await applianceWithLabel(world, owner),
      }),
      expect: ownership("ok", "not-found", { visitor: "denied", employee: "ok" }),
    },
  },
  "routes/part-receipts.$partId": {
    loader: {
      objects: (world, owner) => ({ partId: world.customer(owner).pendingPartId, variant: "full" }),
      expect: ownership("ok", "denied", { visitor: "denied", employee: "ok" }),
    },
  },
  "routes/account": {
    loader: {
      expect: byActor({
        visitor: "denied",
        customerA: "ok",
        customerB: "ok",
        employee: "ok",
        handyman: "ok",
      }),
    },
    actions: [
      {
        name: "update-profile (always one's own)",
        body: (world) => ({
          intent: "update-profile",
          firstName: "Renamed",
          lastName: world.tag,
          phone: "(404) 555-0111",
        }),
        expect: byActor({
          visitor: "denied",
          customerA: "ok",
          customerB: "ok",
          employee: "ok",
          handyman: "ok",
        }),
      },
      {
        name: "save-home (always one's own)",
        body: (world) => ({
          intent: "save-home",
          address: `2 Matrix Way ${world.tag}`,
          city: "Atlanta",
          state: "GA",
          zipCode: "30303",
        }),
        expect: byActor({
          visitor: "denied",
          customerA: "ok",
          customerB: "ok",
          employee: "ok",
          handyman: "ok",
        }),
      },
      {
        name: "two-factor-enable with a wrong password",
        body: () => ({ intent: "two-factor-enable", password: "Wrong-Pass-2026!" }),
        expect: everyone("denied"),
      },
    ],
  },
  // Memberships (ADR 014). Staff's page and its actions: staff only, for the customer in the
  // URL only (a visit or part of the other customer is refused).
  "routes/employee.customers.$customerId.membership": {
    loader: {
      objects: (world, owner) => ({ customerId: world.customer(owner).id }),
      expect: byActor({
        visitor: "to-auth",
        customerA: "to-dashboard",
        customerB: "to-dashboard",
        employee: "ok",
      }),
    },
    actions: [
      {
        name: "start a membership (the customer already has one: refused)",
        objects: (world, owner) => ({ customerId: world.customer(owner).id }),
        body: () => ({
          intent: "start",
          key: formKey(),
          plan: "total",
          billing: "annual",
          startDate: businessToday(),
          amount: "4200",
          method: "check",
        }),
        expect: everyone("denied"),
      },
      {
        name: "record a payment",
        objects: (world, owner) => ({ customerId: world.customer(owner).id }),
        body: (world) => ({
          intent: "payment",
          key: formKey(),
          amount: "12.34",
          method: "check",
          reference: world.tag,
        }),
        expect: staffOnly,
      },
      {
        name: "complete the other customer's visit through this customer's page",
        objects: (world, owner) => ({ customerId: world.customer(owner).id }),
        body: (world, owner) => ({
          intent: "complete",
          appointmentId: world.customer(owner === "A" ? "B" : "A").memberVisitId,
          minutesWorked: "90",
        }),
        expect: everyone("denied"),
      },
      {
        name: "complete a visit with the time worked",
        objects: async (world, owner) => {
          // Finishing a visit marks each task 'Done' or 'Not done' (ADR 046).
          const visitId = world.customer(owner).memberVisitId;
          const tasks = await e2eDb()
            .select({ id: appointmentTasks.id })
            .from(appointmentTasks)
            .where(eq(appointmentTasks.appointmentId, visitId));
          taskOutcomes.set(visitId, Object.fromEntries(tasks.map((t) => [`task-${t.id}`, "done"])));
          return { customerId: world.customer(owner).id };
        },
        body: (world, owner) => ({
          intent: "complete",
          appointmentId: world.customer(owner!).memberVisitId,
          minutesWorked: "90",
          ...taskOutcomes.get(world.customer(owner!).memberVisitId),
        }),
        expect: staffOnly,
      },
      {
        name: "add a part to the other customer's visit through this customer's page",
        objects: (world, owner) => ({ customerId: world.customer(owner).id }),
        body: (world, owner) => ({
          intent: "add-part",
          appointmentId: world.customer(owner === "A" ? "B" : "A").memberVisitId,
          description: "Hinge",
          cost: "4",
        }),
        expect: everyone("denied"),
      },
      {
        name: "add a part",
        objects: (world, owner) => ({ customerId: world.customer(owner).id }),
        body: (world, owner) => ({
          intent: "add-part",
          appointmentId: world.customer(owner!).memberVisitId,
          description: `Hinge ${world.customer(owner!).marker}`,
          cost: "4",
          // Its form's idempotency key (ADR 048), fresh for each asker.
          key: newActionKey(),
        }),
        expect: staffOnly,
      },
      {
        name: "mark a part waiting for approval bought (refused)",
        objects: (world, owner) => ({ customerId: world.customer(owner).id }),
        body: (world, owner) => ({
          intent: "part-bought",
          partId: world.customer(owner!).pendingPartId,
        }),
        expect: everyone("denied"),
      },
      {
        name: "mark an approved part bought",
        objects: (world, owner) => ({ customerId: world.customer(owner).id }),
        body: (world, owner) => ({
          intent: "part-bought",
          partId: world.customer(owner!).approvedPartId,
          key: newActionKey(),
        }),
        expect: staffOnly,
      },
      {
        name: "cancel on the member's behalf",
        objects: (world, owner) => ({ customerId: world.customer(owner).id }),
        body: () => ({ intent: "cancel", key: formKey() }),
        expect: staffOnly,
      },
    ],
  },
  "routes/employee.customers.$customerId.visit-spend": {
    loader: {
      paths: (world) =>
        (["A", "B"] as const).map((owner) => ({
          path: `/employee/customers/${world.customer(owner).id}/visit-spend?date=${addDays(businessToday(), 7)}&block=105`,
          expect: byActor({
            visitor: "denied",
            customerA: "denied",
            customerB: "denied",
            employee: "ok",
          }),
        })),
      expect: everyone("denied"),
    },
  },
  "routes/dashboard.memberships.$membershipId.statement": {
    loader: {
      objects: (world, owner) => ({ membershipId: world.customer(owner).membershipId }),
      expect: ownership("ok", "not-found", { visitor: "denied", employee: "ok" }),
    },
  },
  "routes/api.auth": {
    loader: {
      paths: () => [
        // A visitor gets null; each signed-in person their own session only.
        { path: "/api/auth/get-session", expect: everyone("ok") },
        {
          path: "/api/auth/list-sessions",
          expect: byActor({
            visitor: "denied",
            customerA: "ok",
            customerB: "ok",
            employee: "ok",
            handyman: "ok",
          }),
        },
      ],
      expect: everyone("ok"),
    },
    actions: [
      {
        name: "update-user (always the session's own user)",
        splat: "update-user",
        json: true,
        body: (world) => ({ name: `Updated ${world.tag}` }),
        expect: byActor({
          visitor: "denied",
          customerA: "ok",
          customerB: "ok",
          employee: "ok",
          handyman: "ok",
        }),
      },
      {
        name: "change-password with a wrong current password",
        splat: "change-password",
        json: true,
        body: () => ({ currentPassword: "Wrong-Pass-2026!", newPassword: "Other-Pass-2026!" }),
        expect: everyone("denied"),
      },
    ],
  },
};

/** The 'Create New Appointment' form, for `customer` at `home`'s owner's home, a week ahead. */
function appointmentForm(world: World, customer: Owner, home: Owner): Record<string, string> {
  const date = new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10);
  return {
    customerId: world.customer(customer).id,
    homeId: world.customer(home).homeId,
    scheduledDate: date,
    // 1 h 45 min: the world's customers are members, whose visits are blocks.
    startTime: "13:00",
    endTime: "14:45",
    "tasks[0].description": `Matrix task ${world.tag}`,
    // A week ahead may be a weekend or a holiday: staff book it anyway (ADR 050).
    bookAnyway: "on",
  };
}

function entryFor(route: AppRoute): Entry | undefined {
  return MATRIX[route.id] ?? MATRIX[route.file];
}

/* ---------------- the engine ---------------- */

type Answer = { status: number; location: string | null; body: string };

/** A single-fetch (.data) redirect comes back as 202 with the target in the body. */
function decode(response: Response, body: string): Answer {
  if (response.status === 202 && body.startsWith('[["SingleFetchRedirect"')) {
    const target = /"redirect","([^"]*)"/.exec(body)?.[1] ?? null;
    return { status: 302, location: target, body };
  }
  return { status: response.status, location: response.headers.get("location"), body };
}

function matches(outcome: Outcome, answer: Answer) {
  const redirectTo = (prefix: string) =>
    answer.status >= 300 && answer.status < 400 && (answer.location ?? "").startsWith(prefix);
  switch (outcome) {
    case "ok":
      return answer.status >= 200 && answer.status < 300;
    case "to-auth":
      return redirectTo("/auth");
    case "to-dashboard":
      return redirectTo("/dashboard");
    case "to-employee":
      return redirectTo("/employee");
    case "not-found":
      return answer.status === 404;
    case "denied":
      // Refused outright, or sent somewhere else (a redirect shows no data by itself; where it
      // leads is a GET, checked on its own).
      return answer.status >= 300 && answer.status < 500 && answer.status !== 429;
  }
}

type Figures = {
  routes: number;
  requests: number;
  unexpected2xx: string[];
  foreignRows: string[];
  wrongOutcomes: string[];
  serverErrors: string[];
  foreignWrites: string[];
};

let world: World;
let routes: AppRoute[];
const figures: Figures = {
  routes: 0,
  requests: 0,
  unexpected2xx: [],
  foreignRows: [],
  wrongOutcomes: [],
  serverErrors: [],
  foreignWrites: [],
};

test.beforeAll(async () => {
  routes = await appRoutes();
  world = await buildWorld(e2eDb(), BASE_URL);
});

function record(
  label: string,
  actor: Actor,
  outcome: Outcome,
  answer: Answer,
  sent: Record<string, string> = {},
) {
  figures.requests++;
  const ok = matches(outcome, answer);
  const where = `${label} as ${actor}: expected ${outcome}, got ${answer.status}${answer.location ? ` → ${answer.location}` : ""}`;
  if (answer.status >= 500) figures.serverErrors.push(where);
  else if (!ok) {
    if (answer.status >= 200 && answer.status < 300) figures.unexpected2xx.push(where);
    else figures.wrongOutcomes.push(where);
  }
  // A form echoing what was typed into it (an e-mail address) shows nobody's rows.
  const echoed = (marker: string) => Object.values(sent).some((value) => value.includes(marker));
  for (const marker of foreignMarkers(world, actor)) {
    if (answer.body.includes(marker) && !echoed(marker))
      figures.foreignRows.push(`${label} as ${actor}: ${marker}`);
  }
}

function targetsFor(objects: LoaderRule["objects"] | ActionCase["objects"]): Owner[] | [undefined] {
  return objects ? ["A", "B"] : [undefined];
}

test("every route of app/routes.ts has an entry in the matrix", async () => {
  const missing = routes.filter((route) => !entryFor(route)).map((r) => `${r.id} (${r.file})`);
  expect(missing, "add these routes to MATRIX in this file").toEqual([]);
  figures.routes = routes.length;
  for (const route of routes) {
    const entry = entryFor(route)!;
    if ("layout" in entry) {
      expect(route.hasLoader || route.hasAction, `${route.id} is no mere layout`).toBe(false);
      continue;
    }
    if (route.hasLoader || (route.hasPage && !route.layout))
      expect(entry.loader, `${route.id}: loader rule`).toBeDefined();
    if (route.hasAction)
      expect(
        entry.actions?.length || entry.noAction,
        `${route.id} has an action: add its cases`,
      ).toBeTruthy();
    else expect(entry.actions ?? [], `${route.id} has no action`).toEqual([]);
  }
});

test("loaders and pages: each actor gets what it may, and nobody else's rows", async () => {
  for (const route of routes) {
    const entry = entryFor(route)!;
    if ("layout" in entry || !entry.loader) continue;
    const rule = entry.loader;
    for (const owner of targetsFor(rule.objects)) {
      const params = owner && rule.objects ? await rule.objects(world, owner) : {};
      const urls = rule.paths?.(world) ?? [
        {
          path: fillPattern(route.pattern, { "*": "no-such-page", ...params }),
          expect: rule.expect,
        },
      ];
      for (const { path: url, expect: expectFor } of urls) {
        for (const actor of ACTORS) {
          const outcome = expectFor(actor, owner);
          const client = world.clients[actor];
          const response = await client.get(url, { accept: "text/html" });
          record(`GET ${url}`, actor, outcome, decode(response, await response.text()));
          if (route.hasPage) {
            const dataUrl = url === "/" ? "/_root.data" : `${url}.data`;
            const data = await client.get(dataUrl);
            record(`GET ${dataUrl}`, actor, outcome, decode(data, await data.text()));
          }
        }
      }
    }
  }
});

test("actions: each actor may do what it may, to its own objects only; refusals change nothing", async () => {
  // Every route's actions for every actor, one after another: 38 s of the default 45 on a quiet
  // machine, over it while other suites share the cores.
  test.setTimeout(120_000);
  // Each route's cases in the route table's order; a case with `after` right after that route's.
  const cases = (route: AppRoute, after: string | undefined) => {
    const entry = entryFor(route);
    if (!entry || "layout" in entry) return [];
    return (entry.actions ?? [])
      .filter((a) => a.after === after)
      .map((action) => ({ route, action }));
  };
  const steps = routes.flatMap((route) => [
    ...cases(route, undefined),
    ...routes.flatMap((other) => cases(other, route.id)),
  ]);
  const planned = routes.flatMap((route) => {
    const entry = entryFor(route);
    return entry && !("layout" in entry) ? (entry.actions ?? []) : [];
  });
  expect(steps.length, "every `after` names a route").toBe(planned.length);
  for (const { route, action } of steps) {
    for (const owner of targetsFor(action.objects)) {
      for (const actor of ACTORS) {
        const params = owner && action.objects ? await action.objects(world, owner) : {};
        let url = fillPattern(route.pattern, { "*": action.splat ?? "", ...params });
        if (route.index) url += "?index";
        const outcome = action.expect(actor, owner);
        const before = await snapshot(e2eDb(), world);
        const client = world.clients[actor];
        const body = action.body(world, owner);
        const accept = { accept: action.script ? "application/json" : "text/html" };
        const response = action.multipart
          ? await client.postForm(url, await action.multipart(world, owner), accept)
          : action.json
            ? await client.postJson(url, body)
            : await client.postForm(url, body, accept);
        const label = `POST ${url} [${action.name}]${owner ? ` on ${owner}'s` : ""}`;
        record(label, actor, outcome, decode(response, await response.text()), body);
        const changed = changedPeople(before, await snapshot(e2eDb(), world));
        // Refused: nothing changed. Allowed: only the actor's own rows (and, for employees,
        // the rows of the customer whose object it is).
        const mayChange =
          outcome === "ok" || outcome.startsWith("to-")
            ? [
                actor === "customerA" ? "A" : actor === "customerB" ? "B" : "employee",
                ...(actor === "employee" && owner ? [owner] : []),
              ]
            : [];
        const foreign = changed.filter((who) => !mayChange.includes(who));
        if (foreign.length)
          figures.foreignWrites.push(`${label} as ${actor} changed ${foreign.join(", ")}`);
      }
    }
  }
});

test.afterAll(() => {
  const summary = [
    `authorization matrix: ${figures.routes} routes covered, ${figures.requests} requests`,
    `unexpected 2xx answers: ${figures.unexpected2xx.length}`,
    `foreign rows in answers: ${figures.foreignRows.length}`,
    `foreign writes: ${figures.foreignWrites.length}`,
    `other wrong outcomes: ${figures.wrongOutcomes.length}, server errors: ${figures.serverErrors.length}`,
    ...[
      ...figures.unexpected2xx,
      ...figures.foreignRows,
      ...figures.foreignWrites,
      ...figures.wrongOutcomes,
      ...figures.serverErrors,
    ].map((line) => `  ${line}`),
  ].join("\n");
  console.log(summary);
});

test("the figures: 0 unexpected 2xx, 0 foreign rows, 0 foreign writes, no other wrong outcome", () => {
  expect(figures.requests).toBeGreaterThan(0);
  expect(figures.unexpected2xx).toEqual([]);
  expect(figures.foreignRows).toEqual([]);
  expect(figures.foreignWrites).toEqual([]);
  expect(figures.serverErrors).toEqual([]);
  expect(figures.wrongOutcomes).toEqual([]);
});
