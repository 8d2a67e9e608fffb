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
import { createUser } from "../factories";

/*
 * The admin CLI's employee commands (DESIGN.md "Admin CLI"), run as a person runs them, against
 * an embedded database in a temporary DATA_DIR.
 */

const run = promisify(execFile);
let dataDir: string;

async function cli(...args: string[]) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", "tsx", "scripts/cli.ts", ...args],
      {
        env: { ...process.env, NODE_ENV: "development", DATA_DIR: dataDir, DATABASE_URL: "" },
        timeout: 60_000,
      },
    );
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, out: failure.stdout + failure.stderr };
  }
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
      expect(duplicate.out).toContain("already exists. Use employee:grant instead.");

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
      expect(weak.code).toBe(1);
      expect(weak.out).toContain(
        "Password must contain uppercase, lowercase, number, and special character",
      );

      const missing = await cli("employee:create", "--email", "x@example.com");
      expect(missing.code).toBe(1);
      expect(missing.out).toContain("--password is required");
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

      const unknown = await cli("employee:grant", "--email", "nobody@example.com");
      expect(unknown.code).toBe(1);
      expect(unknown.out).toContain("No account with the e-mail nobody@example.com.");
    });
  },
);
