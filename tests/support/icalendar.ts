import ICAL from "ical.js";

/*
 * Calendar files read back by a maintained iCalendar parser (ical.js, Mozilla's, used by
 * Thunderbird), not by string matching: what a calendar program would see in the file.
 */

export type ParsedEvent = {
  method: string | null;
  uid: string;
  sequence: number;
  status: string | null;
  summary: string;
  start: Date;
  end: Date;
  /** "mailto:..." as the file gives it, lower-cased. */
  organizer: string | null;
  organizerName: string | null;
  attendees: { address: string; name: string | null; partstat: string | null }[];
};

export function parseCalendarFile(text: string): ParsedEvent {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents("vevent");
  if (events.length !== 1) throw new Error(`expected one event, found ${events.length}`);
  const vevent = events[0];
  const event = new ICAL.Event(vevent);
  const organizer = vevent.getFirstProperty("organizer");
  const text_ = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    method: text_(calendar.getFirstPropertyValue("method")),
    uid: event.uid,
    sequence: event.sequence,
    status: text_(vevent.getFirstPropertyValue("status")),
    summary: event.summary,
    start: event.startDate.toJSDate(),
    end: event.endDate.toJSDate(),
    organizer: organizer ? String(organizer.getFirstValue()).toLowerCase() : null,
    organizerName: text_(organizer?.getParameter("cn")),
    attendees: vevent.getAllProperties("attendee").map((attendee) => ({
      address: String(attendee.getFirstValue()).toLowerCase(),
      name: text_(attendee.getParameter("cn")),
      partstat: text_(attendee.getParameter("partstat")),
    })),
  };
}
