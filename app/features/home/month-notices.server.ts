import { and, eq, inArray, isNull } from "drizzle-orm";
import { db } from "~/db/client.server";
import { homeMonthNotices, homePlanTasks, memberships, profiles, user } from "~/db/schema";
import {
  addDays,
  businessToday,
  businessWallClock,
  closedDays,
  isBusinessDay,
  type IsoDate,
} from "~/lib/business-calendar";
import { logger } from "~/lib/logger.server";
import { emailLayout } from "~/lib/mail.server";
import { enqueue } from "~/lib/outbox.server";
import {
  homeMonthText,
  siteUrl,
  textCustomer,
  wantsEmail,
} from "~/features/notifications/index.server";
import { monthOf } from "./plan-dates";
import { planTaskView } from "./record.server";

/*
 * 'Your home this month' (ADR 087): on the first business day of each month, from 9 AM, each
 * member whose plan has tasks due this month or overdue gets one e-mail (and a text if they
 * take reminder texts) naming them and linking to the booking. Once per member per month,
 * whatever runs it and however often: the primary key of home_month_notices (member, month) is
 * claimed in the transaction that queues the messages on the outbox.
 */

/** The first business day of `date`'s month (not a weekend, not a closed day). */
export function firstBusinessDayOfMonth(date: IsoDate): IsoDate {
  const closed = closedDays();
  let day = monthOf(date);
  while (!isBusinessDay(day, closed)) day = addDays(day, 1);
  return day;
}

export const MONTH_NOTICE_HOUR = 9;

/** Sends the month's notices if it is time; returns how many members were written to. */
export async function sendHomeMonthNotices(now = new Date()) {
  const today = businessToday(now);
  if (today !== firstBusinessDayOfMonth(today)) return 0;
  if (businessWallClock(now).minute < MONTH_NOTICE_HOUR * 60) return 0;
  const month = monthOf(today);
  const rows = await db()
    .select({
      customerId: memberships.customerId,
      email: user.email,
      firstName: profiles.firstName,
      task: homePlanTasks,
    })
    .from(memberships)
    .innerJoin(homePlanTasks, eq(homePlanTasks.homeId, memberships.homeId))
    .innerJoin(user, eq(user.id, memberships.customerId))
    .leftJoin(profiles, eq(profiles.userId, memberships.customerId))
    .where(and(eq(memberships.status, "active"), isNull(homePlanTasks.removedAt)));
  const byMember = new Map<string, { email: string; firstName: string | null; due: string[] }>();
  for (const row of rows) {
    if (planTaskView(row.task, today).state === "later") continue;
    const member = byMember.get(row.customerId) ?? {
      email: row.email,
      firstName: row.firstName,
      due: [],
    };
    member.due.push(row.task.title);
    byMember.set(row.customerId, member);
  }
  const already = byMember.size
    ? await db()
        .select({ customerId: homeMonthNotices.customerId })
        .from(homeMonthNotices)
        .where(
          and(
            eq(homeMonthNotices.month, month),
            inArray(homeMonthNotices.customerId, [...byMember.keys()]),
          ),
        )
    : [];
  for (const { customerId } of already) byMember.delete(customerId);
  let sent = 0;
  for (const [customerId, member] of byMember) {
    if (await noticeOnce(customerId, month, member)) sent++;
  }
  if (sent) logger.info({ sent, month }, "'Your home this month' notices queued");
  return sent;
}

async function noticeOnce(
  customerId: string,
  month: IsoDate,
  member: { email: string; firstName: string | null; due: string[] },
) {
  return db().transaction(async (tx) => {
    const [claimed] = await tx
      .insert(homeMonthNotices)
      .values({ customerId, month })
      .onConflictDoNothing()
      .returning({ customerId: homeMonthNotices.customerId });
    if (!claimed) return false;
    const url = siteUrl("/dashboard/book");
    const subject = "Your home this month";
    const lines = [
      `Hello${member.firstName ? ` ${member.firstName}` : ""},`,
      `Your home's maintenance plan has ${member.due.length === 1 ? "a task" : `${member.due.length} tasks`} due this month:`,
      ...member.due.map((title) => `- ${title}`),
      "Book a visit and choose them on the tasks step: they are marked 'From your maintenance plan'.",
    ];
    if (await wantsEmail(tx, customerId, "reminders"))
      await enqueue(
        tx,
        "email",
        {
          to: member.email,
          subject,
          text: [...lines, "", `Book a visit: ${url}`].join("\n"),
          html: emailLayout({
            heading: subject,
            paragraphs: lines,
            action: { label: "Book a visit", url },
          }),
        },
        { recipientId: customerId },
      );
    await textCustomer(tx, {
      recipientId: customerId,
      kind: "reminders",
      body: homeMonthText(member.due.length, url),
      fallbackSubject: subject,
    });
    return true;
  });
}

/** Tries every hour (from shortly after start): the first business day's pass sends, once. */
export function startHomeMonthNotices(options: { firstPassMs?: number; intervalMs?: number } = {}) {
  const intervalMs = options.intervalMs ?? 60 * 60_000;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const run = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      sendHomeMonthNotices()
        .catch((error: Error) =>
          logger.warn({ err: error.message }, "'Your home this month' pass failed"),
        )
        .finally(() => run(intervalMs));
    }, delay);
    timer.unref();
  };
  run(options.firstPassMs ?? 90_000);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
