import fc from "fast-check";
import { createEvent } from "ics";
import nodemailer from "nodemailer";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sendMail, UndeliverableAddressError } from "./mail.server";
import { EMAIL_PATTERN, emailSchema, isValidEmail } from "./validation";

/*
 * The one e-mail rule (ADR 027): what a form accepts, the calendar library (ics), the mail
 * library (nodemailer) and Better Auth (zod's z.email()) carry unchanged. Checked against the libraries themselves, so an upgrade
 * that narrows either one fails here instead of on a visitor's booking.
 */

const writer = nodemailer.createTransport({ streamTransport: true, buffer: true });

/** The recipient as nodemailer would hand it to the mail server. */
async function nodemailerRecipient(address: string) {
  const info = await writer.sendMail({ from: "shop@example.com", to: address, text: "hi" });
  return info.envelope.to;
}

function icsAccepts(address: string) {
  const { error } = createEvent({
    start: [2026, 12, 1, 14, 0],
    startInputType: "utc",
    duration: { minutes: 15 },
    attendees: [{ name: "Someone", email: address }],
  });
  return !error;
}

const accepted = [
  "ada@example.com",
  "ADA@Example.COM",
  "first.last@sub.example.co.uk",
  "x+tag@example.com",
  "o'brien@example.ie",
  "first_last-name+tag@example.com",
  "a@a-b.example",
  "o'neil@example.ie",
  "a@xn--bcher-kva.example",
  "1@123.example.com",
  `${"l".repeat(64)}@example.com`,
  `a@${"d".repeat(63)}.${"e".repeat(63)}.${"f".repeat(63)}.${"g".repeat(60)}`, // 254 in all
];

const refused: [string, string][] = [
  ["a&b@example.com", "an ampersand: Better Auth refuses it"],
  ["a!#$%*/=?^`{|}~@example.com", "symbols Better Auth refuses"],
  ["o'@example.com", "an apostrophe last: Better Auth refuses it"],
  ["a@example.c", "a one-letter top-level domain"],
  ["a@example.x1", "a top-level domain with a digit"],
  ["josé@example.com", "a letter outside ASCII: the calendar library refuses it"],
  ["ada@exämple.com", "a domain outside ASCII: the calendar library refuses it"],
  ['"a b"@example.com', "quotes and spaces"],
  ["a b@example.com", "a space"],
  ["a,b@example.com", "a comma: nodemailer splits it into two recipients"],
  ["a..b@example.com", "a doubled dot: nodemailer sends it quoted"],
  [".a@example.com", "a leading dot"],
  ["a.@example.com", "a trailing dot"],
  ["a@1.2", "an all-number domain: nodemailer reads it as an IP address"],
  ["a@example", "no dot in the domain"],
  ["a@example.com.", "a trailing dot in the domain"],
  ["a@-example.com", "a label starting with a hyphen"],
  ["a@example-.com", "a label ending with a hyphen"],
  ["a@@example.com", "two at signs"],
  ["<a@example.com>", "angle brackets"],
  ["a@example.com\u0000", "a control character"],
  ["a\n@example.com", "a line break"],
  [`${"l".repeat(65)}@example.com`, "a local part over 64 characters"],
  [`a@${"d".repeat(64)}.com`, "a label over 63 characters"],
  [`a@${"d".repeat(63)}.${"e".repeat(63)}.${"f".repeat(63)}.${"g".repeat(61)}`, "255 in all"],
  ["", "empty"],
];

describe("the one e-mail rule", () => {
  for (const address of accepted) {
    it(`accepts ${JSON.stringify(address.slice(0, 40))}, which both libraries carry as it is`, async () => {
      expect(isValidEmail(address)).toBe(true);
      expect(emailSchema.safeParse(address)).toEqual({
        success: true,
        data: address.toLowerCase(),
      });
      // What is stored and mailed is the lower-cased form.
      const stored = address.toLowerCase();
      expect(icsAccepts(stored)).toBe(true);
      expect(z.email().safeParse(stored).success).toBe(true);
      expect(await nodemailerRecipient(stored)).toEqual([stored]);
    });
  }

  for (const [address, why] of refused) {
    it(`refuses ${JSON.stringify(address.slice(0, 40))}: ${why}`, () => {
      expect(isValidEmail(address)).toBe(false);
      const parsed = emailSchema.safeParse(address);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((i) => i.message)).toEqual([
        "Please enter a valid email address",
      ]);
    });
  }

  it("refuses what ics refuses, e.g. josé@example.com (the 500 on /book-call)", () => {
    expect(icsAccepts("josé@example.com")).toBe(false);
    expect(isValidEmail("josé@example.com")).toBe(false);
  });

  it("anything the rule accepts goes through ics, nodemailer and Better Auth unchanged (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.stringMatching(new RegExp(EMAIL_PATTERN.source)), fc.emailAddress()),
        async (address) => {
          fc.pre(isValidEmail(address));
          expect(icsAccepts(address)).toBe(true);
          expect(z.email().safeParse(address).success).toBe(true);
          expect(await nodemailerRecipient(address)).toEqual([address]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the schema answers long hostile input at once", () => {
    const started = performance.now();
    for (const input of [
      `${"a".repeat(100_000)}@`,
      `a@${"a.".repeat(50_000)}`,
      "a@".repeat(50_000),
    ])
      expect(emailSchema.safeParse(input).success).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("mail to an address outside the rule is refused before nodemailer sees it", async () => {
    await expect(
      sendMail({ to: "josé@example.com", subject: "s", text: "t", html: "<p>t</p>" }),
    ).rejects.toBeInstanceOf(UndeliverableAddressError);
  });
});
