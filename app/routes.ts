import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";
import { CITY_PATHS } from "./content/city-paths";

/** Every URL of docs/product.md's route table, plus the resource routes behind them. */
export default [
  // Public pages share the fixed navigation bar and the footer.
  layout("routes/public-layout.tsx", [
    index("routes/home.tsx"),
    route("book-call", "routes/book-call.tsx"),
    // The 11 city pages share one module; their differences are data (app/content/cities.ts).
    ...CITY_PATHS.map((path) => route(path, "routes/city.tsx", { id: `routes/city-${path}` })),
    // Any other path: the not-found page (status 404).
    route("*", "routes/not-found.tsx"),
  ]),
  route("auth", "routes/auth.tsx"),
  route("dashboard", "routes/dashboard.tsx"),
  route("employee", "routes/employee.tsx"),
  // Employee dashboard actions and data (each guards for itself).
  route("employee/requests/:requestId", "routes/employee.requests.$requestId.ts"),
  route("employee/appointments", "routes/employee.appointments.ts"),
  route("employee/customer-options", "routes/employee.customer-options.ts"),
  route("employee/profile-photo", "routes/employee.profile-photo.ts"),
  // Working hours, time off and closed days; the week view per handyman (ADR 015).
  route("employee/availability", "routes/employee.availability.tsx"),
  route("employee/schedule", "routes/employee.schedule.tsx"),
  // Leads (ADR 060): one lead's page, and the lead of a customer (staff book a walk-thru from it).
  route("employee/leads/:leadId", "routes/employee.leads.$leadId.tsx"),
  route("employee/customers/:customerId/lead", "routes/employee.customers.$customerId.lead.ts"),
  // The owner's numbers and each of their tables as CSV (issue 30).
  route("employee/reports", "routes/employee.reports.tsx"),
  route("employee/reports/csv/:table", "routes/employee.reports.csv.$table.ts"),
  // The office's handymen and the partner network of specialists (issue 41, ADR 088).
  route("employee/handymen", "routes/employee.handymen.tsx"),
  route("employee/specialists", "routes/employee.specialists.tsx"),
  // What the outbox gave up on after OUTBOX_MAX_ATTEMPTS tries, for office staff to retry.
  route("employee/failed-deliveries", "routes/employee.failed-deliveries.tsx"),
  // The handyman's day on a phone, where a handyman lands after signing in (ADR 047).
  route("employee/today", "routes/employee.today.tsx"),
  // Employees' profile photos: public, shown to customers on their appointment cards.
  route("profile-photos/:userId/:file", "routes/profile-photos.$userId.$file.ts"),
  // The signed-in person's own account: profile, home, two-factor and sign-out (intents).
  route("account", "routes/account.ts"),
  // The customer's request actions, photo uploads and calendar files (resource routes).
  route("dashboard/requests", "routes/dashboard.requests.ts"),
  route("dashboard/requests/:requestId", "routes/dashboard.requests.$requestId.ts"),
  route("dashboard/requests/:requestId/photos", "routes/dashboard.requests.$requestId.photos.ts"),
  route(
    "dashboard/requests/:requestId/photos/:photoId",
    "routes/dashboard.requests.$requestId.photos.$photoId.ts",
  ),
  route(
    "dashboard/appointments/:visitId/calendar",
    "routes/dashboard.appointments.$visitId.calendar.ts",
  ),
  // Memberships: staff's page per customer (and the visit spend for 'Create New Appointment'),
  // the member's statement file (the member's own membership forms post to /dashboard, ADR 033).
  route(
    "employee/customers/:customerId/membership",
    "routes/employee.customers.$customerId.membership.tsx",
  ),
  route(
    "employee/customers/:customerId/visit-spend",
    "routes/employee.customers.$customerId.visit-spend.ts",
  ),
  route(
    "dashboard/memberships/:membershipId/statement",
    "routes/dashboard.memberships.$membershipId.statement.ts",
  ),
  // Members book, move and cancel their own visits (ADR 017).
  route("dashboard/book", "routes/dashboard.book.tsx"),
  // A signed-in customer books a free walk-thru (ADR 061).
  route("dashboard/walk-thru", "routes/dashboard.walk-thru.tsx"),
  route("dashboard/visits/:visitId", "routes/dashboard.visits.$visitId.tsx"),
  // Private request photos: /request-photos/:id (full size) and /request-photos/:id/thumbnail.
  route("request-photos/:photoId/:variant?", "routes/request-photos.$photoId.ts"),
  // A part's receipt photo: /part-receipts/:id and /part-receipts/:id/thumbnail (staff, the
  // visit's handyman, the member).
  route("part-receipts/:partId/:variant?", "routes/part-receipts.$partId.ts"),

  // The home's record: its appliances, label photos and maintenance plan (ADR 087).
  route("homes/:homeId", "routes/homes.$homeId.ts"),
  route("homes/:homeId/label", "routes/homes.$homeId.label.ts"),
  route(
    "homes/:homeId/appliances/:applianceId/label",
    "routes/homes.$homeId.appliances.$applianceId.label.ts",
  ),

  // Resource routes
  route("api/auth/*", "routes/api.auth.ts"),
  route("webhooks/twilio/sms", "routes/webhooks.twilio.sms.ts"),
  route("webhooks/twilio/status", "routes/webhooks.twilio.status.ts"),
  route("webhooks/stripe", "routes/webhooks.stripe.ts"),
  // The booking page's free intro-call times (the page itself is prerendered).
  route("book-call/slots", "routes/book-call.slots.ts"),
  // For search engines.
  route("sitemap.xml", "routes/sitemap.xml.ts"),
  route("robots.txt", "routes/robots.txt.ts"),
] satisfies RouteConfig;
