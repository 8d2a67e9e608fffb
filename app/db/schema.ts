/*
 * The database schema, one module per business object under app/db/schema/ (ADR 095). This
 * module is the one drizzle.config.ts and the product import: it re-exports every table, enum
 * and row type, so `~/db/schema` reads as one schema.
 */
export * from "./schema/auth";
export * from "./schema/people";
export * from "./schema/home";
export * from "./schema/service-requests";
export * from "./schema/request-photos";
export * from "./schema/visits";
export * from "./schema/memberships";
export * from "./schema/reports";
export * from "./schema/payments";
export * from "./schema/leads";
export * from "./schema/outbox";
export * from "./schema/texts";
export * from "./schema/safeguards";
export * from "./schema/availability";
export * from "./schema/specialists";
