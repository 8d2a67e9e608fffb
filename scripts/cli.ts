import { eq } from "drizzle-orm";
import { isDatabaseEmpty, openDatabase, type DatabaseHandle } from "~/db/client.server";
import { DataDirectoryLockedError } from "~/db/lock.server";
import { profiles, user } from "~/db/schema";
import { LastOfficeAccountError, setStaffRole } from "~/features/accounts/index.server";
import { STAFF_ROLE_LABELS, type StaffRole } from "~/db/staff-role";
import { ConfigError, env } from "~/lib/env.server";
import { createUser } from "../server/seed/factories";
import { commandHelp, generalHelp, parseCommandLine, type CommandSpec } from "./cli-arguments";
import {
  describeDatabase,
  explainConnectionError,
  redact,
  type DatabaseTarget,
} from "./cli-database";
import { demoLoginLines, seedDemo } from "../server/seed/demo";
import { BENCH_EMAIL_DOMAIN, BENCH_PASSWORD, hasBenchData, seedBench } from "../server/seed/bench";
import { businessToday } from "~/lib/business-calendar";

/*
 * The admin CLI (docs/design.md "Admin CLI"). Exit codes: 0 done (or nothing to do), 1 the command
 * could not do its work (no such account, database unreachable), 2 the command line is wrong.
 * Messages never include a stack trace or a password.
 */

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

/** A problem the person running the command can fix: printed with the command's usage. */
class CommandProblem extends Error {
  constructor(
    public readonly command: CommandSpec,
    public readonly problems: string[],
  ) {
    super(problems.join("\n"));
  }
}

/** The database could not be opened, reached or migrated: already worded for the reader. */
class DatabaseProblem extends Error {}

function printProblems(problems: string[], command?: CommandSpec) {
  const heading = command ? `Cannot run ${command.name}:` : "Cannot run the command:";
  console.error([heading, ...problems.map((problem) => `  - ${problem}`)].join("\n"));
  console.error("");
  console.error(command ? commandHelp(command) : generalHelp());
  if (command) console.error('\nRun "npm run cli -- --help" to see every command.');
}

let target: DatabaseTarget | undefined;

async function withDatabase<T>(fn: (handle: DatabaseHandle) => Promise<T>) {
  const config = env();
  target = config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir };
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase(target);
  } catch (error) {
    if (error instanceof DataDirectoryLockedError) throw error;
    throw new DatabaseProblem(explainConnectionError(error, target));
  }
  try {
    try {
      await handle.ping();
    } catch (error) {
      throw new DatabaseProblem(explainConnectionError(error, target));
    }
    try {
      await handle.migrate();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new DatabaseProblem(
        `Migrating ${describeDatabase(target)} failed: ${redact(reason, target)}`,
      );
    }
    return await fn(handle);
  } finally {
    await handle.close().catch(() => {});
  }
}

async function run(argv: string[]): Promise<number> {
  const parsed = parseCommandLine(argv);
  if (parsed.kind === "help") {
    console.log(parsed.command ? commandHelp(parsed.command) : generalHelp());
    return 0;
  }
  if (parsed.kind === "invalid") {
    printProblems(parsed.problems, parsed.command);
    return EXIT_USAGE;
  }
  const { command, options } = parsed;
  const text = (name: string) => options[name] as string;

  switch (command.name) {
    case "db:migrate":
      return withDatabase(async () => {
        console.log(`Migrations applied to ${describeDatabase(target!)}.`);
        return 0;
      });
    case "seed:demo":
      return withDatabase(async ({ db }) => {
        if (!options.force && !(await isDatabaseEmpty(db))) {
          console.log(
            "The database already has accounts; nothing seeded (use --force to add the demo data anyway).",
          );
          return 0;
        }
        await seedDemo(db);
        console.log(["Demo data created. Logins:", ...demoLoginLines()].join("\n"));
        return 0;
      });
    case "seed:bench":
      return withDatabase(async ({ db }) => {
        if (await hasBenchData(db)) {
          console.log("The bench data set is already in this database; nothing seeded.");
          return 0;
        }
        const started = Date.now();
        if (await isDatabaseEmpty(db)) await seedDemo(db);
        const { counts } = await seedBench(db, { today: businessToday() });
        const lines = Object.entries(counts).map(
          ([what, n]) => `  ${what}: ${n.toLocaleString("en-US")}`,
        );
        console.log(
          [
            `Bench data set added to ${describeDatabase(target!)} in ${((Date.now() - started) / 1000).toFixed(1)} s:`,
            ...lines,
            `Logins: handyman1..10@${BENCH_EMAIL_DOMAIN} and member1..N@${BENCH_EMAIL_DOMAIN}, password ${BENCH_PASSWORD}; the demo logins as printed by seed:demo.`,
          ].join("\n"),
        );
        return 0;
      });
    case "employee:create": {
      const email = text("email");
      const firstName = text("first-name");
      const lastName = text("last-name");
      const role = (options.role as StaffRole | undefined) ?? "office";
      return withDatabase(async ({ db }) => {
        const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
        if (existing) {
          throw new CommandProblem(command, [
            `--email: an account with the e-mail ${email} already exists. Use employee:grant instead.`,
          ]);
        }
        await createUser(db, {
          email,
          password: text("password"),
          firstName,
          lastName,
          isEmployee: true,
          staffRole: role,
        });
        console.log(
          `Employee ${firstName} ${lastName} <${email}> created (${STAFF_ROLE_LABELS[role].toLowerCase()}). They can sign in at /auth.`,
        );
        return 0;
      });
    }
    case "employee:set-role": {
      const email = text("email");
      const role = text("role") as StaffRole;
      return withDatabase(async ({ db }) => {
        const [account] = await db
          .select({ id: user.id, isEmployee: profiles.isEmployee, role: profiles.staffRole })
          .from(user)
          .leftJoin(profiles, eq(profiles.userId, user.id))
          .where(eq(user.email, email));
        if (!account?.isEmployee) {
          throw new CommandProblem(command, [
            `--email: no employee with the e-mail ${email}. Use employee:create or employee:grant first.`,
          ]);
        }
        const label = role === "office" ? "office staff" : "a handyman";
        if (account.role === role) {
          console.log(`${email} is already ${label}; nothing changed.`);
          return 0;
        }
        try {
          await setStaffRole(account.id, role, db);
        } catch (error) {
          if (!(error instanceof LastOfficeAccountError)) throw error;
          throw new CommandProblem(command, [`--email: ${error.message}`]);
        }
        console.log(`${email} is now ${label}.`);
        return 0;
      });
    }
    case "employee:grant": {
      const email = text("email");
      return withDatabase(async ({ db }) => {
        const [account] = await db
          .select({ id: user.id, isEmployee: profiles.isEmployee })
          .from(user)
          .leftJoin(profiles, eq(profiles.userId, user.id))
          .where(eq(user.email, email));
        if (!account) {
          throw new CommandProblem(command, [
            `--email: no account with the e-mail ${email}. The person signs up at /auth first, or use employee:create.`,
          ]);
        }
        if (account.isEmployee) {
          console.log(`${email} is already an employee; nothing changed.`);
          return 0;
        }
        await db
          .insert(profiles)
          .values({ userId: account.id, isEmployee: true })
          .onConflictDoUpdate({ target: profiles.userId, set: { isEmployee: true } });
        console.log(`${email} now has employee access.`);
        return 0;
      });
    }
  }
  // parseCommandLine only accepts the commands above.
  throw new Error(`${command.name} has no implementation`);
}

function report(error: unknown): number {
  if (error instanceof CommandProblem) {
    printProblems(error.problems, error.command);
    return EXIT_FAILED;
  }
  if (
    error instanceof DatabaseProblem ||
    error instanceof ConfigError ||
    error instanceof DataDirectoryLockedError
  ) {
    console.error(error.message);
    return EXIT_FAILED;
  }
  // Anything else is a defect or an unforeseen failure: its message, never its stack (which
  // could hold values), and never a password.
  const message = error instanceof Error ? error.message : String(error);
  console.error(
    `The command failed: ${target ? redact(message, target) : message}` +
      (target ? ` (database: ${describeDatabase(target)})` : ""),
  );
  return EXIT_FAILED;
}

run(process.argv.slice(2))
  .catch(report)
  .then((code) => process.exit(code));
