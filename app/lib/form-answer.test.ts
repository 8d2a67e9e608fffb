import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrorsOf, keptValuesOf } from "./form-answer";
import { answer, answerMode, answerStatus, parseForm, parseIntent } from "./form-answer.server";

const schema = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required"),
  email: z.string({ error: "Email is required" }).email("Please enter a valid email address"),
});

function form(entries: [string, string][]) {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

describe("parseForm: a Zod schema over a posted form, answered with Conform's reply()", () => {
  it("gives each refused field its messages and puts back what was typed", () => {
    const submission = parseForm(
      form([
        ["name", " "],
        ["email", "nope"],
      ]),
      schema,
      ["name", "email"],
    );
    expect(submission.status).toBe("error");
    const result = submission.reply();
    expect(fieldErrorsOf(result)).toEqual({
      name: "Name is required",
      email: "Please enter a valid email address",
    });
    expect(keptValuesOf(result)).toEqual({ name: " ", email: "nope" });
  });

  it("a field sent twice is refused in plain words, not silently narrowed to one", () => {
    const submission = parseForm(
      form([
        ["name", "Ann"],
        ["name", "Bob"],
        ["email", "a@example.com"],
      ]),
      schema,
      ["name", "email"],
    );
    expect(submission.status).toBe("error");
    expect(fieldErrorsOf(submission.reply())).toHaveProperty("name");
  });

  it("a valid form gives its parsed value; reply({ resetForm }) empties the form", () => {
    const submission = parseForm(
      form([
        ["name", " Ann "],
        ["email", "a@example.com"],
      ]),
      schema,
    );
    expect(submission.status).toBe("success");
    if (submission.status === "success")
      expect(submission.value).toEqual({ name: "Ann", email: "a@example.com" });
    expect(keptValuesOf(submission.reply({ resetForm: true }))).toBeUndefined();
  });
});

describe("who asked, and the status they get", () => {
  const post = (headers: Record<string, string>) =>
    new Request("http://localhost/x", { method: "POST", headers });

  it("the page's own script, a plain form post, an API client", () => {
    expect(answerMode(post({ accept: "*/*" }), { scriptRequest: true })).toBe("script");
    expect(answerMode(post({ accept: "text/html,application/xhtml+xml,*/*;q=0.8" }), {})).toBe(
      "page",
    );
    expect(answerMode(post({ accept: "application/json" }), {})).toBe("json");
    expect(answerMode(post({}), {})).toBe("json");
  });

  it("the page's script gets 200 for a person's mistake; 403, 404 and 5xx keep theirs", () => {
    const script = { scriptRequest: true };
    for (const status of [400, 401, 409, 413, 415, 429]) {
      expect(answerStatus(status, script)).toBe(200);
      expect(answerStatus(status, {})).toBe(status);
    }
    for (const status of [403, 404, 500, 503]) expect(answerStatus(status, script)).toBe(status);
    // A 403 that is a person's ordinary situation (an address not confirmed yet).
    expect(answerStatus(403, script, true)).toBe(200);
    expect(answerStatus(403, {}, true)).toBe(403);
    expect(answerStatus(500, script, true)).toBe(500);
  });

  it("answer: 200 when ok, 400 when not, unless the action says otherwise", () => {
    expect(answer({ ok: true }, {}).init?.status).toBe(200);
    expect(answer({ ok: false }, {}).init?.status).toBe(400);
    expect(answer({ ok: false }, { scriptRequest: true }).init?.status).toBe(200);
    expect(answer({ ok: false }, {}, { status: 429 }).init?.status).toBe(429);
  });
});

describe("parseIntent: an intent action's form over parseWithZod (ADR 093)", () => {
  const payment = z.object({
    amount: z.string({ error: "Please enter the amount" }).min(1, "Please enter the amount"),
    method: z.enum(["card", "check"], { error: "Please choose how it was paid" }),
    reference: z.string().max(5, "At most 5 characters").optional(),
  });

  it("refuses with every field's message, the first as the form's sentence", () => {
    const parsed = parseIntent(
      form([
        ["intent", "payment"],
        ["amount", ""],
        ["method", "gold"],
        ["reference", "too long"],
      ]),
      payment,
      "payment",
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.refusal).toMatchObject({
      ok: false,
      intent: "payment",
      message: "Please enter the amount",
    });
    expect(fieldErrorsOf(parsed.refusal.result)).toEqual({
      amount: "Please enter the amount",
      method: "Please choose how it was paid",
      reference: "At most 5 characters",
    });
  });

  it("reads the text as it came (empty text is not made missing) and gives the value", () => {
    const parsed = parseIntent(
      form([
        ["intent", "payment"],
        ["amount", "12"],
        ["method", "card"],
        ["reference", ""],
      ]),
      payment,
      "payment",
    );
    expect(parsed).toEqual({
      ok: true,
      value: { amount: "12", method: "card", reference: "" },
    });
  });
});
