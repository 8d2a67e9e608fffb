import { db, type Database } from "./client.server";

/*
 * Queries run on every signed-in page, built once per database instead of on every call:
 * drizzle's query building showed in the CPU profile of /dashboard under load. The database also
 * keeps the statement prepared per connection, under the name behind the connection's prefix
 * (ADR 037).
 */
const built = new WeakMap<Database, Map<string, unknown>>();

export function prepared<T>(name: string, build: (database: Database) => T): T {
  const database = db();
  let statements = built.get(database);
  if (!statements) {
    statements = new Map();
    built.set(database, statements);
  }
  let statement = statements.get(name) as T | undefined;
  if (!statement) {
    statement = build(database);
    statements.set(name, statement);
  }
  return statement;
}
