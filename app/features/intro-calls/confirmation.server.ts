import { createEvent } from "ics";
import type { IntroCall } from "~/db/schema";
import { calendarContact } from "~/features/visits/index.server";
import { business } from "~/lib/business.server";
import { logger } from "~/lib/logger.server";
import { emailLayout, type MailMessage } from "~/lib/mail.server";
import { SLOT_MINUTES, slotLabel } from "./slots";

/** The calendar invitation for a booked intro call: exact UTC instants, 15 minutes, by phone. */
export function introCallIcs(
  call: Pick<IntroCall, "id" | "name" | "email" | "phone" | "startsAt">,
) {
  const settings = business();
  const start = call.startsAt;
  const { error, value } = createEvent({
    uid: `intro-call-${call.id}`,
    productId: settings.name,
    title: `Intro call with ${settings.name}`,
    description: `A ${SLOT_MINUTES}-minute phone call about your home. We will call you at ${call.phone}. To reschedule, call ${settings.phone}.`,
    location: `Phone call to ${call.phone}`,
    start: [
      start.getUTCFullYear(),
      start.getUTCMonth() + 1,
      start.getUTCDate(),
      start.getUTCHours(),
      start.getUTCMinutes(),
    ],
    startInputType: "utc",
    startOutputType: "utc",
    duration: { minutes: SLOT_MINUTES },
    status: "CONFIRMED",
    organizer: calendarContact({ name: settings.name, email: settings.email }),
    attendees: [
      {
        ...calendarContact({ name: call.name, email: call.email }),
        rsvp: false,
        partstat: "ACCEPTED",
      },
    ],
  });
  // The library's error is not always an Error and carries the whole event: keep its words only.
  if (error || !value) throw new Error(`could not build the calendar file: ${error?.message}`);
  return value;
}

/**
 * The calendar file, or none: the booking is already made when this runs, so a file the
 * library cannot build costs the attachment (logged), never the booking or its e-mail.
 */
function introCallAttachments(
  call: Pick<IntroCall, "id" | "name" | "email" | "phone" | "startsAt">,
) {
  try {
    return [
      { filename: "intro-call.ics", content: introCallIcs(call), contentType: "text/calendar" },
    ];
  } catch (error) {
    logger.error(
      { introCallId: call.id, err: (error as Error).message },
      "intro call calendar file could not be built; the confirmation goes without it",
    );
    return [];
  }
}

export function introCallConfirmation(
  call: Pick<IntroCall, "id" | "name" | "email" | "phone" | "startsAt">,
): MailMessage {
  const settings = business();
  const when = slotLabel(call.startsAt);
  const paragraphs = [
    `Hi ${call.name},`,
    `Your ${SLOT_MINUTES}-minute intro call is booked for ${when}. We will call you at ${call.phone}.`,
    "We will talk about your home's maintenance needs, the repairs and upgrades on your list, and pricing and next steps. There is no obligation.",
    `Need to reschedule? Call us at ${settings.phone} (${settings.hours}).`,
  ];
  const attachments = introCallAttachments(call);
  if (attachments.length)
    paragraphs.push("The attached calendar file adds the call to your calendar.");
  return {
    to: call.email,
    subject: `Your intro call is booked: ${when}`,
    text: paragraphs.join("\n\n"),
    html: emailLayout({ heading: "Your intro call is booked", paragraphs }),
    attachments,
  };
}
