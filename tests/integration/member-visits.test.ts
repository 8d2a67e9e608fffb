import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appointments, memberships, outbox, serviceRequests, visitCalendar } from "~/db/schema";
import {
  MEMBERS_ONLY_MESSAGE,
  bookMemberVisit,
  cancelMemberVisit,
  moveMemberVisit,
  visitSpendSummary,
} from "~/features/visits/member-visits.server";
import {
  TOO_LATE_MESSAGE,
  VisitRejectedError,
  bookVisit,
  cancelVisit,
  moveVisit,
} from "~/features/visits/visits.server";
import { offerVisits } from "~/features/availability/availability.server";
import type { MailMessage } from "~/lib/mail.server";
import {
  createHome,
  createMembership,
  createServiceRequest,
  createUser,
} from "../../server/seed/factories";
import { business } from "~/lib/business.server";
import { parseCalendarFile } from "../support/icalendar";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox cascade`);
});

// Tuesday 24 November 2026, 10:10 AM in Atlanta.
const now = new Date("2026-11-24T15:10:00Z");

async function member(n = 1) {
  const handyman = await createUser(database.db, {
    email: `handyman${n}@example.com`,
    password: "x",
    firstName: "Dana",
    lastName: "Reyes",
    isEmployee: true,
  });
  const account = await createUser(database.db, {
    email: `member${n}@example.com`,
    password: "x",
    firstName: "Maria",
    lastName: "Member",
  });
  const home = await createHome(database.db, account.id, { address: "418 Ponce de Leon Ave" });
  const requests = [];
  for (const title of ["Fix the gate", "Hang shelves", "Caulk the tub", "Paint the door"]) {
    requests.push(await createServiceRequest(database.db, home, { title, priority: "next" }));
  }
  return { handyman, account, home, requests };
}

async function mails() {
  const rows = await database.db.select().from(outbox).orderBy(outbox.createdAt);
  return rows.map((r) => ({ ...r, message: r.payload as MailMessage }));
}

describe("members' own visits", () => {
  it("offers nothing on Thanksgiving and books, moves and cancels with one calendar entry", async () => {
    const { account, requests, handyman } = await member();
    const { days } = await offerVisits({ customerId: account.id, block: 210, now });
    expect(days.map((d) => d.date)).not.toContain("2026-11-26");
    expect(days.map((d) => d.date)).not.toContain("2026-11-27");

    const visit = await bookVisit(
      account.id,
      {
        block: 210,
        date: "2026-11-30",
        startMinute: 9 * 60,
        requestIds: [requests[0].id, requests[1].id],
      },
      { now },
    );
    expect(visit.handyman.id).toBe(handyman.id);
    expect(visit.endTime).toBe("12:30:00");
    const scheduled = await database.db
      .select({ status: serviceRequests.status })
      .from(serviceRequests)
      .where(eq(serviceRequests.id, requests[0].id));
    expect(scheduled[0].status).toBe("scheduled");
    let outboxRows = await mails();
    const booked = outboxRows.find((r) => r.message.subject.startsWith("Your visit is booked"))!;
    // Read by an iCalendar parser: one event, the same UID throughout, an invitation from the
    // business (ORGANIZER) to the member (ATTENDEE), so calendars apply each later file to it.
    const uid = `appointment-${visit.id}@peachtree-handyman`;
    const organizer = `mailto:${business().email}`.toLowerCase();
    const attendee = {
      address: `mailto:${account.email}`.toLowerCase(),
      name: "Maria Member",
      partstat: "ACCEPTED",
    };
    const ics0 = parseCalendarFile(booked.message.attachments![0].content as string);
    expect(ics0).toMatchObject({ uid, method: "REQUEST", sequence: 0, organizer });
    expect(ics0.organizerName).toBe(business().name);
    expect(ics0.attendees).toEqual([attendee]);
    expect(ics0.start.toISOString()).toBe("2026-11-30T14:00:00.000Z");
    const reminder = outboxRows.find((r) => r.message.subject.startsWith("Reminder"))!;
    // 24 hours before Monday 9:00 AM EST.
    expect(reminder.nextAttemptAt.toISOString()).toBe("2026-11-29T14:00:00.000Z");

    // The slot is gone for everyone else.
    const again = await offerVisits({
      customerId: account.id,
      block: 210,
      now,
      onlyDate: "2026-11-30",
    });
    expect(again.days[0].slots.map((s) => s.label)).not.toContain("9:00 AM");

    const moved = await moveVisit(
      { id: account.id, isEmployee: false },
      visit.id,
      { date: "2026-12-01", startMinute: 13 * 60 },
      { now },
    );
    expect(moved.sequence).toBe(1);
    outboxRows = await mails();
    const movedMail = outboxRows.find((r) => r.message.subject.startsWith("Your visit has moved"))!;
    const ics1 = parseCalendarFile(movedMail.message.attachments![0].content as string);
    expect(ics1).toMatchObject({ uid, method: "REQUEST", sequence: 1, organizer });
    expect(ics1.attendees).toEqual([attendee]);
    expect(ics1.start.toISOString()).toBe("2026-12-01T18:00:00.000Z");
    const reminders = outboxRows.filter((r) => r.message.subject.startsWith("Reminder"));
    expect(reminders).toHaveLength(1);
    expect(reminders[0].nextAttemptAt.toISOString()).toBe("2026-11-30T18:00:00.000Z");

    await cancelVisit({ id: account.id, isEmployee: false }, visit.id, { now });
    outboxRows = await mails();
    const canceledMail = outboxRows.find((r) =>
      r.message.subject.startsWith("Your visit is canceled"),
    )!;
    const ics2 = parseCalendarFile(canceledMail.message.attachments![0].content as string);
    expect(ics2).toMatchObject({
      uid,
      method: "CANCEL",
      sequence: 2,
      status: "CANCELLED",
      organizer,
    });
    expect(ics2.attendees).toEqual([attendee]);
    expect(outboxRows.filter((r) => r.message.subject.startsWith("Reminder"))).toHaveLength(0);
    const [state] = await database.db.select().from(visitCalendar);
    expect(state.sequence).toBe(2);
    const [row] = await database.db.select().from(appointments);
    expect(row.status).toBe("canceled");
    const back = await database.db
      .select({ status: serviceRequests.status })
      .from(serviceRequests)
      .where(eq(serviceRequests.id, requests[0].id));
    expect(back[0].status).toBe("reviewed");
  });

  it("keeps a first visit to 3 tasks and refuses slots that are not offered", async () => {
    const { account, requests } = await member(2);
    const ids = requests.map((r) => r.id);
    await expect(
      bookVisit(
        account.id,
        { block: 105, date: "2026-11-30", startMinute: 540, requestIds: ids },
        { now },
      ),
    ).rejects.toThrow("Your first visit can take at most 3 tasks.");
    await expect(
      bookVisit(
        account.id,
        { block: 105, date: "2026-11-26", startMinute: 540, requestIds: [ids[0]] },
        { now },
      ),
    ).rejects.toThrow(VisitRejectedError);
    await expect(
      bookVisit(
        account.id,
        { block: 105, date: "2026-11-30", startMinute: 17 * 60, requestIds: [ids[0]] },
        { now },
      ),
    ).rejects.toThrow(VisitRejectedError);
  });

  it("lets a member change a visit only up to 24 hours before it; staff always", async () => {
    const { account, requests, handyman } = await member(3);
    const visit = await bookVisit(
      account.id,
      { block: 105, date: "2026-11-25", startMinute: 11 * 60, requestIds: [requests[0].id] },
      { now },
    );
    // 20 hours before Wednesday 11:00 AM.
    const late = new Date("2026-11-24T20:00:00Z");
    await expect(
      cancelVisit({ id: account.id, isEmployee: false }, visit.id, { now: late }),
    ).rejects.toThrow(TOO_LATE_MESSAGE);
    // Another member cannot touch it at all.
    await expect(
      cancelVisit({ id: "someone-else", isEmployee: false }, visit.id, { now }),
    ).rejects.toThrow("Visit not found.");
    await cancelVisit({ id: handyman.id, isEmployee: true }, visit.id, { now: late });
  });
});

describe("members' visits spend the hours bank", () => {
  async function bank(customerId: string) {
    const [row] = await database.db
      .select({ minutes: memberships.minutesAvailable, balance: memberships.balanceCents })
      .from(memberships)
      .where(eq(memberships.customerId, customerId));
    return row;
  }

  it("reserves the block at booking, keeps one reservation through a move, returns it on cancel", async () => {
    const { account, requests } = await member();
    await createMembership(database.db, account.id, {
      plan: "complete",
      billing: "annual",
      startDate: "2026-11-01",
      today: "2026-11-24",
    });
    const actor = { id: account.id, isEmployee: false };
    expect(
      await visitSpendSummary(account.id, { date: "2026-11-30", block: 210 }, { now }),
    ).toEqual({
      label: "Uses 3 h 30 min of 42 h left",
      refused: false,
    });
    const visit = await bookMemberVisit(
      account.id,
      { block: 210, date: "2026-11-30", startMinute: 9 * 60, requestIds: [requests[0].id] },
      { now },
    );
    expect((await bank(account.id)).minutes).toBe(42 * 60 - 210);
    await moveMemberVisit(actor, visit.id, { date: "2026-12-01", startMinute: 9 * 60 }, { now });
    expect((await bank(account.id)).minutes).toBe(42 * 60 - 210);
    await cancelMemberVisit(actor, visit.id, { now });
    expect((await bank(account.id)).minutes).toBe(42 * 60);
  });

  it("shows an extra visit's $150 with its reason, and charges it when booked", async () => {
    const { account, requests } = await member();
    // Essential: 10 visits a year, so one a month.
    await createMembership(database.db, account.id, {
      plan: "essential",
      billing: "annual",
      startDate: "2026-11-01",
      today: "2026-11-24",
    });
    await bookMemberVisit(
      account.id,
      { block: 105, date: "2026-12-01", startMinute: 9 * 60, requestIds: [requests[0].id] },
      { now },
    );
    const { balance } = await bank(account.id);
    expect(
      await visitSpendSummary(account.id, { date: "2026-12-03", block: 105 }, { now }),
    ).toEqual({
      label: "Extra visit: $150 (The monthly allowance of 1 visit is used.)",
      refused: false,
    });
    const long = await visitSpendSummary(account.id, { date: "2026-12-03", block: 210 }, { now });
    expect(long?.refused).toBe(true);
    await expect(
      bookMemberVisit(
        account.id,
        { block: 210, date: "2026-12-03", startMinute: 9 * 60, requestIds: [requests[1].id] },
        { now },
      ),
    ).rejects.toBeInstanceOf(VisitRejectedError);
    await bookMemberVisit(
      account.id,
      { block: 105, date: "2026-12-03", startMinute: 9 * 60, requestIds: [requests[1].id] },
      { now },
    );
    expect((await bank(account.id)).balance).toBe(balance + 15_000);
    // The extra visit's e-mail says its $150 (issue 27, item 13); the bank visit's does not.
    const booked = (await mails()).filter((r) =>
      r.message.subject.startsWith("Your visit is booked"),
    );
    expect(booked).toHaveLength(2);
    expect(booked[0].message.text).not.toContain("Extra visit");
    expect(booked[1].message.text).toContain(
      "Extra visit: $150, charged to your membership. The monthly allowance of 1 visit is used.",
    );
  });

  it("refuses a customer without a membership and writes nothing", async () => {
    const { account, requests } = await member();
    expect(await visitSpendSummary(account.id, { date: "2026-11-30", block: 105 })).toBeNull();
    await expect(
      bookMemberVisit(
        account.id,
        { block: 105, date: "2026-11-30", startMinute: 9 * 60, requestIds: [requests[0].id] },
        { now },
      ),
    ).rejects.toThrow(MEMBERS_ONLY_MESSAGE);
    const rows = await database.db
      .select()
      .from(appointments)
      .where(eq(appointments.customerId, account.id));
    expect(rows).toHaveLength(0);
    const [request] = await database.db
      .select({ status: serviceRequests.status })
      .from(serviceRequests)
      .where(eq(serviceRequests.id, requests[0].id));
    expect(request.status).toBe("new");
  });
});
