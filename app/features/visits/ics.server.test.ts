import { describe, expect, it } from "vitest";
import { appointmentIcs, appointmentIcsFileName, zonedTimeToUtc } from "./ics.server";
import { longDate, minuteLabel } from "~/lib/business-calendar";

/** Unfolds RFC 5545 line folding so assertions can read whole properties. */
function unfold(ics: string) {
  return ics.replace(/\r\n[ \t]/g, "");
}

describe("zonedTimeToUtc", () => {
  it("reads wall-clock times in America/New_York, winter and summer", () => {
    expect(zonedTimeToUtc("2026-12-01", "10:00").toISOString()).toBe("2026-12-01T15:00:00.000Z");
    expect(zonedTimeToUtc("2026-07-04", "09:30:00").toISOString()).toBe("2026-07-04T13:30:00.000Z");
  });

  it("handles the daylight-saving change days", () => {
    // 2026-03-08: clocks jump from 2:00 to 3:00 EST→EDT.
    expect(zonedTimeToUtc("2026-03-08", "01:30").toISOString()).toBe("2026-03-08T06:30:00.000Z");
    expect(zonedTimeToUtc("2026-03-08", "03:30").toISOString()).toBe("2026-03-08T07:30:00.000Z");
    // 2026-11-01: clocks fall back from 2:00 EDT to 1:00 EST.
    expect(zonedTimeToUtc("2026-11-01", "00:30").toISOString()).toBe("2026-11-01T04:30:00.000Z");
    expect(zonedTimeToUtc("2026-11-01", "12:00").toISOString()).toBe("2026-11-01T17:00:00.000Z");
  });
});

describe("appointmentIcs", () => {
  const appointment = {
    id: "7d8c2c4e-1111-4222-8333-944455556666",
    scheduledDate: "2026-12-01",
    startTime: "10:00:00",
    endTime: "13:30:00",
    address: "418 Ponce de Leon Ave",
    city: "Decatur",
    state: "GA",
    tasks: ["Fix the kitchen faucet", "Hang six prints"],
    notes: "Gate code 2468",
  };

  it("reads the visit's state: a canceled visit or a no-show is CANCELLED (ADR 046)", () => {
    expect(unfold(appointmentIcs({ ...appointment, status: "booked" }))).toContain(
      "STATUS:CONFIRMED",
    );
    expect(unfold(appointmentIcs({ ...appointment, status: "completed" }))).toContain(
      "STATUS:CONFIRMED",
    );
    for (const status of ["canceled", "no_show"] as const)
      expect(unfold(appointmentIcs({ ...appointment, status }))).toContain("STATUS:CANCELLED");
  });

  it("carries the spec's title, location, description, status and times", () => {
    const ics = unfold(appointmentIcs(appointment));
    expect(ics).toContain("BEGIN:VCALENDAR");
    expect(ics).toContain("SUMMARY:Handyman Appointment");
    expect(ics).toContain("LOCATION:418 Ponce de Leon Ave\\, Decatur\\, GA");
    expect(ics).toContain(
      "DESCRIPTION:Planned tasks:\\n- Fix the kitchen faucet\\n- Hang six prints\\n\\nNotes: Gate code 2468",
    );
    expect(ics).toContain("STATUS:CONFIRMED");
    expect(ics).toContain("DTSTART:20261201T150000Z");
    expect(ics).toContain("DTEND:20261201T183000Z");
    expect(ics).toContain(`UID:appointment-${appointment.id}@peachtree-handyman`);
  });

  it("leaves out notes that are empty", () => {
    const ics = unfold(appointmentIcs({ ...appointment, notes: null, tasks: ["One"] }));
    expect(ics).toContain("DESCRIPTION:Planned tasks:\\n- One");
    expect(ics).not.toContain("Notes:");
  });

  it("is named by the scheduled date", () => {
    expect(appointmentIcsFileName("2026-12-01")).toBe("appointment-2026-12-01.ics");
  });
});

describe("display formats", () => {
  it("shows dates in long US form and times in 12-hour form", () => {
    expect(longDate("2026-12-01")).toBe("Tuesday, December 1, 2026");
    expect(minuteLabel("00:05:00")).toBe("12:05 AM");
    expect(minuteLabel("12:00:00")).toBe("12:00 PM");
    expect(minuteLabel("13:30")).toBe("1:30 PM");
  });
});
