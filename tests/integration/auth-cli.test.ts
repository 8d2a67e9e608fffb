import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { verifyPassword } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { account, profiles, user } from "~/db/schema";
import { createUser } from "../../server/seed/factories";

/*
 * The admin CLI (docs/design.md "Admin CLI"), run as a person runs them, against an embedded
 * database in a temporary DATA_DIR. Exit codes: 0 done, 1 could not do it, 2 wrong command line.
 */

const run = promisify(execFile);
let dataDir: string;

async function cli(...args: string[]) {
  return cliWith({}, ...args);
}

async function cliWith(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", "tsx", "scripts/cli.ts", ...args],
      {
        env: {
          ...process.env,
          NODE_ENV: "development",
          DATA_DIR: dataDir,
          DATABASE_URL: "",
          ...env,
        },
        timeout: 60_000,
      },
    );
    return { code: 0, out: stdout + stderr, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return {
      code: failure.code,
      out: failure.stdout + failure.stderr,
      stdout: failure.stdout,
      stderr: failure.stderr,
    };
  }
}

/** No stack trace: no "    at fn (file:line)" frames, no "Error:" dumps of internals. */
function expectNoStackTrace(out: string) {
  expect(out).not.toMatch(/^\s+at .+[:(]/m);
  expect(out).not.toMatch(/node:internal|ZodError|\.ts:\d+/);
}

/** Opens the CLI's database between runs (the CLI holds the directory lock while it runs). */
async function withDatabase<T>(
  fn: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<T>,
) {
  const handle = await openDatabase({ dataDir });
  try {
    await handle.migrate();
    return await fn(handle.db);
  } finally {
    await handle.close();
  }
}

// Each run starts Node and an embedded database: slow on a busy machine. The commands use their
// own embedded database whatever TEST_DB says, so the PostgreSQL pass of the suite skips them.
describe.skipIf(process.env.TEST_DB === "postgres")(
  "admin CLI: employee commands",
  { timeout: 180_000 },
  () => {
    beforeAll(() => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-cli-"));
    });
    afterAll(() => {
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it("employee:create makes a verified employee who can sign in with that password", async () => {
      const result = await cli(
        "employee:create",
        "--email",
        "New.Hire@Example.com",
        "--password",
        "Hammer-Time-2026!",
        "--first-name",
        "Nia",
        "--last-name",
        "Builder",
      );
      expect(result.out).toContain("Employee Nia Builder <new.hire@example.com> created");
      expect(result.code).toBe(0);
      await withDatabase(async (db) => {
        const [row] = await db
          .select({
            verified: user.emailVerified,
            isEmployee: profiles.isEmployee,
            first: profiles.firstName,
            hash: account.password,
          })
          .from(user)
          .innerJoin(profiles, eq(profiles.userId, user.id))
          .innerJoin(account, eq(account.userId, user.id))
          .where(eq(user.email, "new.hire@example.com"));
        expect(row).toMatchObject({ verified: true, isEmployee: true, first: "Nia" });
        expect(await verifyPassword({ hash: row.hash!, password: "Hammer-Time-2026!" })).toBe(true);
      });
    });

    it("employee:create refuses an existing address, a weak password and missing options", async () => {
      const duplicate = await cli(
        "employee:create",
        "--email",
        "new.hire@example.com",
        "--password",
        "Hammer-Time-2026!",
        "--first-name",
        "Nia",
        "--last-name",
        "Again",
      );
      expect(duplicate.code).toBe(1);
      expect(duplicate.out).toContain(
        "--email: an account with the e-mail new.hire@example.com already exists. Use employee:grant instead.",
      );

      const weak = await cli(
        "employee:create",
        "--email",
        "weak@example.com",
        "--password",
        "password",
        "--first-name",
        "Weak",
        "--last-name",
        "Pass",
      );
      expect(weak.code).toBe(2);
      expect(weak.out).toContain(
        "--password: Password must contain uppercase, lowercase, number, and special character",
      );

      const missing = await cli("employee:create", "--email", "x@example.com");
      expect(missing.code).toBe(2);
      expect(missing.out).toContain("--password is required");
      expect(missing.out).toContain("--first-name is required");
      expect(missing.out).toContain("--last-name is required");
      expect(missing.stderr).toContain(
        "Usage: npm run cli -- employee:create --email E --password P --first-name F --last-name L",
      );
      await withDatabase(async (db) => {
        expect(await db.select().from(user).where(eq(user.email, "weak@example.com"))).toEqual([]);
      });
    });

    it("employee:grant gives an existing customer employee access; unknown addresses are refused", async () => {
      await withDatabase((db) =>
        createUser(db, {
          email: "promote.me@example.com",
          password: "Sturdy-Pass-2026!",
          firstName: "Pat",
          lastName: "Customer",
        }),
      );
      const granted = await cli("employee:grant", "--email", "PROMOTE.ME@example.com");
      expect(granted.code).toBe(0);
      expect(granted.out).toContain("promote.me@example.com now has employee access.");
      await withDatabase(async (db) => {
        const [row] = await db
          .select({ isEmployee: profiles.isEmployee, first: profiles.firstName })
          .from(profiles)
          .innerJoin(user, eq(user.id, profiles.userId))
          .where(eq(user.email, "promote.me@example.com"));
        expect(row).toEqual({ isEmployee: true, first: "Pat" });
      });

      // Again: nothing to do, and it says so.
      const again = await cli("employee:grant", "--email", "promote.me@example.com");
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(
        "promote.me@example.com is already an employee; nothing changed.",
      );
      expect(again.stderr).toBe("");

      const unknown = await cli("employee:grant", "--email", "nobody@example.com");
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain(
        "Cannot run employee:grant:\n  - --email: no account with the e-mail nobody@example.com.",
      );
      expect(unknown.stderr).toContain("Usage: npm run cli -- employee:grant --email E");
      expectNoStackTrace(unknown.out);
    });

    it("wrong command lines: every problem named at once, with the usage, exit 2, no stack", async () => {
      const missing = await cli("employee:grant");
      expect(missing.code).toBe(2);
      expect(missing.stderr).toBe(
        [
          "Cannot run employee:grant:",
          "  - --email is required",
          "",
          "Usage: npm run cli -- employee:grant --email E",
          "  Give an existing account employee access (nothing changes if it already has it).",
          "    --email E  the e-mail address the account signs in with (required)",
          "",
          'Run "npm run cli -- --help" to see every command.',
          "",
        ].join("\n"),
      );
      expect(missing.stdout).toBe("");

      const malformed = await cli("employee:grant", "--email", "notanemail", "--force");
      expect(malformed.code).toBe(2);
      expect(malformed.stderr).toContain("  - Unknown option --force\n");
      expect(malformed.stderr).toContain(
        '  - --email: "notanemail" is not a valid e-mail address (expected something like name@example.com)',
      );
      expect(malformed.stderr).toContain("Usage: npm run cli -- employee:grant --email E");
      expectNoStackTrace(malformed.out);

      const typo = await cli("employee:grant", "--emial", "a@example.com");
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain("Unknown option --emial (did you mean --email?)");
      expect(typo.stderr).toContain("--email is required");

      const unknown = await cli("employee:promote", "--email", "a@example.com");
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('Unknown command "employee:promote"');
      // The general usage follows, with every command.
      for (const name of ["db:migrate", "seed:demo", "employee:create", "employee:grant"])
        expect(unknown.stderr).toContain(name);
      expectNoStackTrace(unknown.out);
    });

    it("--help lists every command with its options", async () => {
      const help = await cli("--help");
      expect(help.code).toBe(0);
      expect(help.stderr).toBe("");
      for (const line of [
        "Usage: npm run cli -- <command> [options]",
        "db:migrate",
        "seed:demo [--force]",
        "--force",
        "employee:create --email E --password P --first-name F --last-name L",
        "--password P",
        "--first-name F",
        "--last-name L",
        "employee:grant --email E",
        "--email E",
      ])
        expect(help.stdout).toContain(line);

      const one = await cli("employee:grant", "--help");
      expect(one.code).toBe(0);
      expect(one.stdout).toContain("Usage: npm run cli -- employee:grant --email E");
      expect(one.stdout).not.toContain("employee:create");
    });

    it("a database it cannot reach is named by host and port, never with its password", async () => {
      const result = await cliWith(
        { DATABASE_URL: "postgres://handyman:Sup3r-Secret-Pw@127.0.0.1:1/handyman" },
        "employee:grant",
        "--email",
        "someone@example.com",
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'Could not reach PostgreSQL database "handyman" on 127.0.0.1:1 as user handyman (DATABASE_URL): connection refused',
      );
      expect(result.out).not.toContain("Sup3r-Secret-Pw");
      expectNoStackTrace(result.out);

      // An embedded database whose directory cannot be used: the directory is named.
      const notADirectory = path.join(dataDir, "a-file");
      fs.writeFileSync(notADirectory, "not a directory");
      const embedded = await cliWith({ DATA_DIR: notADirectory }, "db:migrate");
      expect(embedded.code).toBe(1);
      expect(embedded.stderr).toContain(`the embedded database in DATA_DIR ${notADirectory}`);
      expectNoStackTrace(embedded.out);
    });
  },
);
