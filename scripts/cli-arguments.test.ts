import { describe, expect, it } from "vitest";
import { COMMANDS, commandHelp, generalHelp, parseCommandLine } from "./cli-arguments";

function problemsOf(argv: string[]) {
  const parsed = parseCommandLine(argv);
  if (parsed.kind !== "invalid") throw new Error(`expected problems, got ${parsed.kind}`);
  return parsed.problems;
}

describe("admin CLI command line", () => {
  it("accepts each command with valid options, normalising the e-mail", () => {
    expect(parseCommandLine(["employee:grant", "--email", " Pat@Example.COM "])).toMatchObject({
      kind: "run",
      command: { name: "employee:grant" },
      options: { email: "pat@example.com" },
    });
    expect(parseCommandLine(["employee:grant", "--email=pat@example.com"])).toMatchObject({
      kind: "run",
      options: { email: "pat@example.com" },
    });
    expect(parseCommandLine(["seed:demo", "--force"])).toMatchObject({
      kind: "run",
      options: { force: true },
    });
    expect(parseCommandLine(["db:migrate"])).toMatchObject({ kind: "run", options: {} });
    // A password may start with a dash.
    expect(
      parseCommandLine([
        "employee:create",
        "--email",
        "a@example.com",
        "--password",
        "-Hammer-Time-2026!",
        "--first-name",
        "Nia",
        "--last-name",
        "Builder",
      ]),
    ).toMatchObject({ kind: "run", options: { password: "-Hammer-Time-2026!" } });
  });

  it("names an unknown command and suggests the closest one", () => {
    expect(problemsOf(["employee:grnat", "--email", "a@example.com"])).toEqual([
      'Unknown command "employee:grnat" (did you mean employee:grant?)',
    ]);
    expect(problemsOf(["frobnicate"])).toEqual(['Unknown command "frobnicate"']);
    expect(problemsOf(["help", "nothing"])).toEqual(['Unknown command "nothing"']);
  });

  it("reports a missing or malformed option by its name", () => {
    expect(problemsOf(["employee:grant"])).toEqual(["--email is required"]);
    expect(problemsOf(["employee:grant", "--email", "notanemail"])).toEqual([
      '--email: "notanemail" is not a valid e-mail address (expected something like name@example.com)',
    ]);
    expect(problemsOf(["employee:grant", "--email"])).toEqual(["--email needs a value: --email E"]);
    expect(problemsOf(["employee:grant", "--email", ""])).toEqual(["--email is empty"]);
    expect(problemsOf(["employee:grant", "--email", "a@example.com", "--email", "b@x.io"])).toEqual(
      ["--email was given more than once"],
    );
    expect(problemsOf(["seed:demo", "--force=yes"])).toEqual([
      "--force is a flag and takes no value",
    ]);
    expect(problemsOf(["db:migrate", "--force"])).toEqual([
      "db:migrate takes no options, but got --force",
    ]);
    expect(problemsOf(["employee:grant", "a@example.com"])).toEqual([
      'Unexpected argument "a@example.com"',
      "--email is required",
    ]);
  });

  it("lists every problem at once", () => {
    expect(
      problemsOf(["employee:create", "--emial", "x@example.com", "--password", "weak", "-v"]),
    ).toEqual([
      "Unknown option --emial (did you mean --email?)",
      "Unknown option -v",
      "--email is required",
      "--password: Password must be at least 8 characters",
      "--first-name is required",
      "--last-name is required",
    ]);
  });

  it("never repeats a password in a message", () => {
    const problems = problemsOf([
      "employee:create",
      "--email",
      "a@example.com",
      "--password",
      "secretpassword",
      "--first-name",
      "Nia",
      "--last-name",
      "B",
    ]);
    expect(problems).toEqual([
      "--password: Password must contain uppercase, lowercase, number, and special character",
      "--last-name: Name must be at least 2 characters",
    ]);
    expect(problems.join("\n")).not.toContain("secretpassword");
  });

  it("shows hostile input safely: control characters escaped, long values cut", () => {
    const [problem] = problemsOf(["employee:grant", "--email", `bad\u001b[31m${"x".repeat(300)}`]);
    expect(problem).not.toContain("\u001b");
    expect(problem).toContain("bad\\u001b[31m");
    expect(problem.length).toBeLessThan(200);
  });

  it("--help lists every command with its options; a command's --help shows its own", () => {
    expect(parseCommandLine([])).toEqual({ kind: "help" });
    expect(parseCommandLine(["--help"])).toEqual({ kind: "help" });
    expect(parseCommandLine(["-h"])).toEqual({ kind: "help" });
    expect(parseCommandLine(["employee:grant", "--help"])).toMatchObject({
      kind: "help",
      command: { name: "employee:grant" },
    });
    expect(parseCommandLine(["help", "seed:demo"])).toMatchObject({
      kind: "help",
      command: { name: "seed:demo" },
    });
    const help = generalHelp();
    for (const command of COMMANDS) {
      expect(help).toContain(command.name);
      for (const option of command.options) expect(help).toContain(`--${option.name}`);
    }
    expect(commandHelp(COMMANDS.find((c) => c.name === "employee:grant")!)).toBe(
      [
        "Usage: npm run cli -- employee:grant --email E",
        "  Give an existing account employee access (nothing changes if it already has it).",
        "    --email E  the e-mail address the account signs in with (required)",
      ].join("\n"),
    );
  });
});
