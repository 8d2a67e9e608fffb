import { z } from "zod";
import { emailSchema, nameSchema, newPasswordSchema } from "~/lib/validation";

/*
 * The admin CLI's command line: which commands exist, which options each takes, and every
 * problem with what was typed, found in one pass so a person fixes them all at once. Nothing
 * here touches the database; scripts/cli.ts runs what this accepts.
 */

type OptionSpec = {
  /** Without the leading "--". */
  name: string;
  /** The placeholder shown in usage ("E"); absent for a flag. */
  value?: string;
  required?: boolean;
  description: string;
  /** Checks and normalises the value; the first issue's message is shown. */
  schema?: z.ZodType<string, string>;
  /** Replaces the schema's message, given the value typed (never used for secrets). */
  invalid?: (value: string) => string;
  /** A password: its value is never repeated in a message. */
  secret?: boolean;
};

export type CommandSpec = {
  name: string;
  summary: string;
  options: OptionSpec[];
};

/** An employee's role (ADR 047). */
const roleSchema = z.string().refine((value) => value === "office" || value === "handyman");

export const COMMANDS: CommandSpec[] = [
  {
    name: "db:migrate",
    summary: "Apply the SQL migrations in drizzle/ to the database.",
    options: [],
  },
  {
    name: "seed:demo",
    summary:
      "Create the demo employee, customers, requests and appointment (only into an empty database unless --force).",
    options: [
      {
        name: "force",
        description: "add the demo data even when the database already has accounts",
      },
    ],
  },
  {
    name: "seed:bench",
    summary:
      "Add the bench data set: 2,000 members over 3 years, 10 handymen, their visits, parts and leads (the demo data too on an empty database).",
    options: [],
  },
  {
    name: "employee:create",
    summary: "Create a verified employee account that can sign in at /auth.",
    options: [
      {
        name: "email",
        value: "E",
        required: true,
        description: "the new employee's e-mail address",
        schema: emailSchema,
        invalid: (value) =>
          `"${value}" is not a valid e-mail address (expected something like name@example.com)`,
      },
      {
        name: "password",
        value: "P",
        required: true,
        description:
          "at least 8 characters with uppercase, lowercase, a number and a special character",
        schema: newPasswordSchema,
        secret: true,
      },
      {
        name: "first-name",
        value: "F",
        required: true,
        description: "first name (letters, spaces, ' and -)",
        schema: nameSchema,
      },
      {
        name: "last-name",
        value: "L",
        required: true,
        description: "last name (letters, spaces, ' and -)",
        schema: nameSchema,
      },
      {
        name: "role",
        value: "R",

        description:
          "office (office staff: every page) or handyman (their own visits, on 'Today'), office when not given",
        schema: roleSchema,
        invalid: (value) => `"${value}" is not a role (expected office or handyman)`,
      },
    ],
  },
  {
    name: "employee:set-role",
    summary: "Make an employee office staff or a handyman (existing employees are office staff).",
    options: [
      {
        name: "email",
        value: "E",
        required: true,
        description: "the e-mail address the employee signs in with",
        schema: emailSchema,
        invalid: (value) =>
          `"${value}" is not a valid e-mail address (expected something like name@example.com)`,
      },
      {
        name: "role",
        value: "R",
        required: true,
        description: "office (office staff: every page) or handyman (their own visits, on 'Today')",
        schema: roleSchema,
        invalid: (value) => `"${value}" is not a role (expected office or handyman)`,
      },
    ],
  },
  {
    name: "employee:grant",
    summary: "Give an existing account employee access (nothing changes if it already has it).",
    options: [
      {
        name: "email",
        value: "E",
        required: true,
        description: "the e-mail address the account signs in with",
        schema: emailSchema,
        invalid: (value) =>
          `"${value}" is not a valid e-mail address (expected something like name@example.com)`,
      },
    ],
  },
];

export function findCommand(name: string) {
  return COMMANDS.find((command) => command.name === name);
}

export function usageLine(command: CommandSpec) {
  const options = command.options.map((option) => {
    const text = option.value ? `--${option.name} ${option.value}` : `--${option.name}`;
    return option.required ? text : `[${text}]`;
  });
  return [command.name, ...options].join(" ");
}

/** The command's usage, summary and options, as `--help` and every usage error print them. */
export function commandHelp(command: CommandSpec) {
  const lines = [`Usage: npm run cli -- ${usageLine(command)}`, `  ${command.summary}`];
  if (command.options.length) {
    const labels = command.options.map((option) =>
      option.value ? `--${option.name} ${option.value}` : `--${option.name}`,
    );
    const width = Math.max(...labels.map((label) => label.length));
    command.options.forEach((option, index) => {
      const required = option.required ? " (required)" : "";
      lines.push(`    ${labels[index].padEnd(width)}  ${option.description}${required}`);
    });
  }
  return lines.join("\n");
}

/** Every command with its options, for `--help`. */
export function generalHelp() {
  return [
    "Usage: npm run cli -- <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((command) =>
      commandHelp(command)
        .replace(/^Usage: npm run cli -- /, "")
        .split("\n")
        .map((line) => `  ${line}`)
        .join("\n"),
    ),
    "",
    "Every command also takes --help (-h): `npm run cli -- employee:grant --help`.",
    "The database is DATABASE_URL when set, otherwise the embedded one in DATA_DIR (./data).",
    "Stop the server first when using the embedded database: it holds a lock on DATA_DIR.",
  ].join("\n");
}

export type ParsedCommandLine =
  | { kind: "help"; command?: CommandSpec }
  | { kind: "run"; command: CommandSpec; options: Record<string, string | true> }
  | { kind: "invalid"; command?: CommandSpec; problems: string[] };

/** The closest of `candidates` to `typed`, when it is close enough to be a likely typo. */
function suggestion(typed: string, candidates: string[]) {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(typed.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (!best) return undefined;
  return best.distance <= Math.max(2, Math.floor(best.candidate.length / 3))
    ? best.candidate
    : undefined;
}

function editDistance(a: string, b: string) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length];
}

/** Shown in messages: control characters and very long input would garble the terminal. */
function shown(value: string) {
  const printable = JSON.stringify(value).slice(1, -1);
  return printable.length > 80 ? `${printable.slice(0, 77)}...` : printable;
}

const isHelp = (arg: string) => arg === "--help" || arg === "-h";

export function parseCommandLine(argv: string[]): ParsedCommandLine {
  const [name, ...rest] = argv;
  if (name === undefined || isHelp(name)) return { kind: "help" };
  if (name === "help") {
    const topic = rest[0] === undefined ? undefined : findCommand(rest[0]);
    if (rest[0] !== undefined && !topic) return unknownCommand(rest[0]);
    return { kind: "help", command: topic };
  }
  const command = findCommand(name);
  if (!command) return unknownCommand(name);
  if (rest.some(isHelp)) return { kind: "help", command };

  const problems: string[] = [];
  const given = new Map<string, string | true>();
  const known = (optionName: string) => command.options.find((o) => o.name === optionName);

  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === "--") {
      for (const extra of rest.slice(i + 1)) problems.push(`Unexpected argument "${shown(extra)}"`);
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      problems.push(`Unexpected argument "${shown(arg)}"`);
      continue;
    }
    const equals = arg.indexOf("=");
    const optionName = (equals > 0 ? arg.slice(0, equals) : arg).replace(/^-{1,2}/, "");
    const inline = equals > 0 ? arg.slice(equals + 1) : undefined;
    const option = arg.startsWith("--") ? known(optionName) : undefined;
    if (!option) {
      const accepted = command.options.map((o) => o.name);
      const close = suggestion(optionName, accepted);
      const label = equals > 0 ? arg.slice(0, equals) : arg;
      problems.push(
        accepted.length === 0
          ? `${command.name} takes no options, but got ${shown(label)}`
          : `Unknown option ${shown(label)}` + (close ? ` (did you mean --${close}?)` : ""),
      );
      // "--emial x": x belongs to the mistyped option, not a separate mistake.
      if (inline === undefined && rest[i + 1] !== undefined && !rest[i + 1].startsWith("-")) i++;
      continue;
    }
    if (given.has(option.name)) {
      problems.push(`--${option.name} was given more than once`);
    }
    if (!option.value) {
      if (inline !== undefined) problems.push(`--${option.name} is a flag and takes no value`);
      given.set(option.name, true);
      continue;
    }
    let value = inline;
    if (value === undefined && rest[i + 1] !== undefined && !rest[i + 1].startsWith("--")) {
      value = rest[++i];
    }
    if (value === undefined) {
      problems.push(`--${option.name} needs a value: --${option.name} ${option.value}`);
      given.set(option.name, "");
      continue;
    }
    given.set(option.name, value);
  }

  const options: Record<string, string | true> = {};
  for (const option of command.options) {
    const value = given.get(option.name);
    if (value === undefined) {
      if (option.required) problems.push(`--${option.name} is required`);
      continue;
    }
    if (value === true || !option.schema) {
      options[option.name] = value;
      continue;
    }
    if (value === "") {
      // Already reported when the value was missing; an explicit empty one is reported here.
      if (!problems.some((p) => p.startsWith(`--${option.name} needs a value`)))
        problems.push(`--${option.name} is empty`);
      continue;
    }
    const result = option.schema.safeParse(value);
    if (result.success) {
      options[option.name] = result.data;
    } else {
      const message =
        option.invalid && !option.secret
          ? option.invalid(shown(value))
          : (result.error.issues[0]?.message ?? "is not valid");
      problems.push(`--${option.name}: ${message}`);
    }
  }

  if (problems.length) return { kind: "invalid", command, problems: [...new Set(problems)] };
  return { kind: "run", command, options };
}

function unknownCommand(name: string): ParsedCommandLine {
  const close = suggestion(
    name,
    COMMANDS.map((command) => command.name),
  );
  return {
    kind: "invalid",
    problems: [`Unknown command "${shown(name)}"` + (close ? ` (did you mean ${close}?)` : "")],
  };
}
