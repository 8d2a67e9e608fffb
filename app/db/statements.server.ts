import { createHash } from "node:crypto";
import type pg from "pg";

/**
 * How many statements one connection keeps prepared. The application has a few hundred query
 * shapes; a list of ids of varying length (`in ($1, $2, ...)`) makes a new text per length, so
 * past this a connection runs new texts unprepared, as before, instead of growing without end.
 */
export const PREPARED_PER_CONNECTION = 1000;

type QueryConfigLike = { text: string; name?: string };

/** Numbers the connections: the embedded database's share one session, so their names differ. */
let connections = 0;

/**
 * Every query with parameters is prepared once per connection and then only bound and executed:
 * node-postgres sends Parse for a named statement the first time only, so the database parses
 * and analyses its text once instead of on every call (ADR 037). The name is the connection's
 * number and a hash of the text: the embedded database serves its connections on one session,
 * where two connections must not share a name. A query without parameters goes by the simple
 * protocol as before (a migration's text may hold several commands, which cannot be prepared).
 */
export function prepareStatements(
  client: pg.PoolClient | pg.Client,
  limit = PREPARED_PER_CONNECTION,
) {
  const names = new Map<string, string>();
  const prefix = `c${(connections = (connections + 1) % 1e6)}_`;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const named = (config: QueryConfigLike) => {
    let name = names.get(config.text);
    if (name === undefined) {
      if (names.size >= limit) return config;
      name = prefix + createHash("sha1").update(config.text).digest("base64url");
      names.set(config.text, name);
    }
    return { ...config, name };
  };
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const [config, values] = args;
    if (
      config !== null &&
      typeof config === "object" &&
      typeof (config as QueryConfigLike).text === "string"
    ) {
      const asked = config as QueryConfigLike;
      // A statement the code named itself (drizzle's prepare) gets the connection's prefix too.
      if (asked.name) return query({ ...asked, name: prefix + asked.name }, ...args.slice(1));
      if (Array.isArray(values) && values.length > 0) return query(named(asked), ...args.slice(1));
    }
    return query(...args);
  };
}
