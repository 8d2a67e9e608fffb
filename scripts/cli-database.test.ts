import { describe, expect, it } from "vitest";
import { describeDatabase, explainConnectionError, redact } from "./cli-database";

const url = "postgres://handyman:p%40ss-W0rd@db.internal:6543/handyman_prod";

function failure(code: string, message = "") {
  return Object.assign(new Error(message), { code });
}

describe("admin CLI: naming the database", () => {
  it("names host, port, database and user of DATABASE_URL, never the password", () => {
    const text = describeDatabase({ databaseUrl: url });
    expect(text).toBe(
      'PostgreSQL database "handyman_prod" on db.internal:6543 as user handyman (DATABASE_URL)',
    );
    expect(describeDatabase({ databaseUrl: "postgresql://localhost/shop" })).toBe(
      'PostgreSQL database "shop" on localhost:5432 (DATABASE_URL)',
    );
    expect(describeDatabase({ databaseUrl: "postgres://u@/shop?host=/var/run/postgresql" })).toBe(
      'PostgreSQL database "shop" on socket /var/run/postgresql as user u (DATABASE_URL)',
    );
    expect(describeDatabase({ dataDir: "/srv/handyman/data" })).toBe(
      "the embedded database in DATA_DIR /srv/handyman/data",
    );
  });

  it("explains why the database could not be reached", () => {
    const target = { databaseUrl: url };
    expect(explainConnectionError(failure("ECONNREFUSED", "connect ECONNREFUSED"), target)).toBe(
      'Could not reach PostgreSQL database "handyman_prod" on db.internal:6543 as user handyman (DATABASE_URL): ' +
        "connection refused (is PostgreSQL running and listening on that host and port?). Check DATABASE_URL.",
    );
    expect(explainConnectionError(failure("ENOTFOUND"), target)).toContain(
      "the host name could not be resolved",
    );
    expect(explainConnectionError(failure("28P01"), target)).toContain(
      "the server refused the password",
    );
    expect(explainConnectionError(failure("3D000"), target)).toContain(
      "that database does not exist",
    );
    expect(
      explainConnectionError(new Error("Connection terminated due to connection timeout"), target),
    ).toContain("timed out");
    // Node reports a refused "localhost" once per address, in an AggregateError without a message.
    const aggregate = Object.assign(new AggregateError([failure("ECONNREFUSED", "::1")], ""), {
      code: "ECONNREFUSED",
    });
    expect(explainConnectionError(aggregate, target)).toContain("connection refused");
    expect(
      explainConnectionError(failure("ENOTDIR", "ENOTDIR: not a directory, mkdir '/x/pglite'"), {
        dataDir: "/x",
      }),
    ).toBe(
      "Could not open the embedded database in DATA_DIR /x: ENOTDIR: not a directory, mkdir '/x/pglite'. Check DATA_DIR.",
    );
  });

  it("a password that is also an ordinary word leaves the description alone", () => {
    const target = { databaseUrl: "postgres://postgres:postgres@127.0.0.1:1/postgres" };
    const text = explainConnectionError(
      failure("28P01", 'password authentication failed for user "postgres"'),
      target,
    );
    expect(text).toBe(
      'Could not reach PostgreSQL database "postgres" on 127.0.0.1:1 as user postgres (DATABASE_URL): ' +
        "the server refused the password. Check DATABASE_URL.",
    );
  });

  it("removes the password from any message, encoded or not", () => {
    const target = { databaseUrl: url };
    const message = `failed for ${url} (password p@ss-W0rd, p%40ss-W0rd)`;
    const clean = redact(message, target);
    expect(clean).not.toContain("p@ss-W0rd");
    expect(clean).not.toContain("p%40ss-W0rd");
    expect(redact("see postgres://x:hunter2@h/db", { dataDir: "/d" })).toBe(
      "see postgres://x:***@h/db",
    );
    expect(explainConnectionError(new Error(`password "p@ss-W0rd" refused`), target)).not.toContain(
      "p@ss-W0rd",
    );
  });
});
