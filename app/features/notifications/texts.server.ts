import { business } from "~/lib/business.server";
import { oneSegment, plainGsm7 } from "~/lib/text-segment";

/*
 * Every text the business sends, in one place (issue 40 item 9): each names the business once,
 * at its start, and fits one SMS segment (app/lib/text-segment.ts); the test renders each with
 * its longest realistic values. Callers pass the link and the parts that vary.
 */

function brand(rest: string) {
  return `${business().name}: ${rest}`;
}

/** A visit booked (by the member or by staff), moved or canceled. */
export function visitChangeText(kind: "booked" | "moved" | "canceled", when: string, url: string) {
  const lead = {
    booked: "your visit is booked for",
    moved: "your visit moved to",
    canceled: "your visit is canceled:",
  }[kind];
  return plainGsm7(brand(`${lead} ${when}. ${url}`));
}

/** The reminder the day before (`two`: a visit with two handymen). */
export function reminderText(when: string, url: string, two = false) {
  const who = two ? "your handymen come" : "your handyman comes";
  return plainGsm7(brand(`reminder, ${who} tomorrow, ${when}. ${url}`));
}

/** 'Your home this month' (ADR 087): how many plan tasks are due, and the booking's link. */
export function homeMonthText(count: number, url: string) {
  const tasks =
    count === 1 ? "1 task of your home plan is" : `${count} tasks of your home plan are`;
  return plainGsm7(brand(`${tasks} due this month. Book a visit: ${url}`));
}

/**
 * 'On my way': the handyman's name, or both handymen's ("Dana Whitfield and Sam Okafor", `two`),
 * shortened to fit, the business once.
 */
export function onMyWayText(handymanName: string | null, two = false) {
  const are = two ? "are" : "is";
  return handymanName
    ? oneSegment((name) => brand(`${name} ${are} on the way to your home now.`), handymanName)
    : plainGsm7(brand("your handyman is on the way to your home now."));
}

/** A membership's card payment failed. */
export function paymentFailedText(planName: string) {
  return oneSegment(
    (plan) =>
      brand(
        `your ${plan} membership payment did not go through. Please update your card: Membership tab, 'Update card'.`,
      ),
    planName,
  );
}

/** An alert to the office's mobile: the subject shortened to fit with the staff link. */
export function officeAlertText(subject: string, url: string) {
  return oneSegment((s) => brand(`${s}. ${url}`), subject);
}

/** A code to sign in, or to verify the mobile (ADR 086): never asked for by us on the phone. */
export function textCodeText(code: string, purpose: "sign-in" | "verify") {
  const what = purpose === "sign-in" ? "sign-in code" : "code to verify this mobile";
  return plainGsm7(
    brand(`${code} is your ${what}. It works for 5 minutes. We never ask for it by phone.`),
  );
}

/** The answers to HELP, STOP and START. */
export function consentReplyText(event: "help" | "stop" | "start") {
  const b = business();
  return plainGsm7(
    brand(
      {
        help: `visit texts. Call ${b.phone} or e-mail ${b.email}. Reply STOP to stop texts.`,
        stop: "you will get no more texts from us. Reply START to get them again.",
        start: "texts about your visits are on again. Reply STOP to stop them.",
      }[event],
    ),
  );
}
