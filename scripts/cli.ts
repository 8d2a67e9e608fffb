import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { isDatabaseEmpty, openDatabase, type DatabaseHandle } from "~/db/client.server";
import { DataDirectoryLockedError } from "~/db/lock.server";
import { profiles, user } from "~/db/schema";
import { ConfigError, env } from "~/lib/env.server";
import { createUser } from "../tests/factories";
import { DEMO_LOGINS, seedDemo } from "./seed";
import { emailSchema, nameSchema, newPasswordSchema as passwordSchema } from "~/lib/validation";

const COMMANDS: Record<string, { usage: string; summary: string }> = {
  "db:migrate": {
    usage: "db:migrate",
    summary: "Apply the SQL migrations in drizzle/ to the database.",
  },
  "seed:demo": {
    usage: "seed:demo [--force]",
    summary:
      "Create the demo employee, customers, requests and appointment (only into an empty database unless --force).",
  },
  "employee:create": {
    usage: "employee:create --email E --password P --first-name F --last-name L",
    summary: "Create a verified employee account that can sign in at /auth.",
  },
  "employee:grant": {
    usage: "employee:grant --email E",
    summary: "Give an existing account employee access.",
  },
};

function help() {
  console.log("Usage: npm run cli -- <command> [options]\n\nCommands:");
  for (const command of Object.values(COMMANDS)) {
    console.log(`  ${command.usage}\n      ${command.summary}`);
  }
  console.log(
    "\nThe database is DATABASE_URL when set, otherwise the embedded one in DATA_DIR (./data).",
  );
  console.log(
    "Stop the server first when using the embedded database: it holds a lock on DATA_DIR.",
  );
}

class UsageError extends Error {}

async function withDatabase<T>(fn: (handle: DatabaseHandle) => Promise<T>) {
  const config = env();
  const handle = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
  );
  try {
    await handle.migrate();
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

function required(values: Record<string, string | boolean | undefined>, name: string) {
  const value = values[name];
  if (typeof value !== "string" || value.trim() === "")
    throw new UsageError(`--${name} is required`);
  return value.trim();
}

async function run(argv: string[]) {
  const [command, ...rest] = argv;
  if (!command || command === "--help" || command === "-h" || command === "help") {
    help();
    return 0;
  }
  if (!(command in COMMANDS)) throw new UsageError(`Unknown command "${command}"`);
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      "first-name": { type: "string" },
      "last-name": { type: "string" },
      force: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    console.log(`Usage: npm run cli -- ${COMMANDS[command].usage}\n${COMMANDS[command].summary}`);
    return 0;
  }

  switch (command) {
    case "db:migrate":
      await withDatabase(async (handle) => {
        console.log(`Migrations applied (${handle.kind}).`);
      });
      return 0;
    case "seed:demo":
      return withDatabase(async ({ db }) => {
        if (!values.force && !(await isDatabaseEmpty(db))) {
          console.log(
            "The database already has accounts; nothing seeded (use --force to add the demo data anyway).",
          );
          return 0;
        }
        await seedDemo(db);
        console.log("Demo data created. Logins:");
        for (const login of DEMO_LOGINS)
          console.log(`  ${login.role.padEnd(9)} ${login.email}  ${login.password}`);
        return 0;
      });
    case "employee:create": {
      const email = emailSchema.parse(required(values, "email"));
      const password = passwordSchema.parse(required(values, "password"));
      const firstName = nameSchema.parse(required(values, "first-name"));
      const lastName = nameSchema.parse(required(values, "last-name"));
      return withDatabase(async ({ db }) => {
        const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
        if (existing) {
          console.error(
            `An account with the e-mail ${email} already exists. Use employee:grant instead.`,
          );
          return 1;
        }
        await createUser(db, { email, password, firstName, lastName, isEmployee: true });
        console.log(
          `Employee ${firstName} ${lastName} <${email}> created. They can sign in at /auth.`,
        );
        return 0;
      });
    }
    case "employee:grant": {
      const email = emailSchema.parse(required(values, "email"));
      return withDatabase(async ({ db }) => {
        const [account] = await db
          .select({ id: user.id, name: user.name })
          .from(user)
          .where(eq(user.email, email));
        if (!account) {
          console.error(`No account with the e-mail ${email}.`);
          return 1;
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
  return 1;
}

run(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n`);
      help();
    } else if (error instanceof ConfigError || error instanceof DataDirectoryLockedError) {
      console.error(error.message);
    } else if (error?.name === "ZodError") {
      console.error(error.issues.map((issue: { message: string }) => issue.message).join("\n"));
    } else {
      console.error(error instanceof Error ? error.message : error);
    }
    process.exit(1);
  });
