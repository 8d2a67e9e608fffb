import { offerVisits, type OfferContext } from "~/features/availability/index.server";
import { addDays, businessToday, longDate, type IsoDate } from "~/lib/business-calendar";
import { dedicatedHandymanOf, listHandymen } from "./dedicated.server";
import type { HandymanCard } from "./types";

/*
 * The away rule (issue 41, item 3; ADR 088): when the member's dedicated handyman has no free
 * start for the chosen block in the next 14 days (time off, a full week), she reads "Dana is
 * away until December 14" and chooses 'Wait for Dana' (his first free days) or 'Book with Sam',
 * the covering handyman: the other handyman with the most free starts in those 14 days.
 */

export const AWAY_WINDOW_DAYS = 14;

export type BookingHandymen = {
  dedicated: HandymanCard | null;
  /** Null when he has time in the next 14 days. */
  away: {
    /** His first free day in the booking window (null: none in the 4 weeks). */
    until: IsoDate | null;
    untilLabel: string | null;
    cover: HandymanCard | null;
  } | null;
};

async function freeStarts(
  customerId: string,
  block: number,
  employeeId: string,
  now: Date,
  context: OfferContext | undefined,
) {
  const last = addDays(businessToday(now), AWAY_WINDOW_DAYS - 1);
  const { days } = await offerVisits({
    customerId,
    block,
    now,
    employeeIds: [employeeId],
    context,
  });
  return {
    inWindow: days.filter((d) => d.date <= last).reduce((n, d) => n + d.slots.length, 0),
    firstDay: days[0]?.date ?? null,
  };
}

/**
 * Who the booking names: her handyman, and when he is away, the date he is back and his cover.
 * `context`: the offer's context the booking read already (ADR 107), whose `now` is used.
 */
export async function bookingHandymen(
  customerId: string,
  block: number,
  now = new Date(),
  context?: OfferContext,
): Promise<BookingHandymen> {
  const dedicated = await dedicatedHandymanOf(customerId);
  if (!dedicated) return { dedicated: null, away: null };
  const his = await freeStarts(customerId, block, dedicated.id, context?.now ?? now, context);
  if (his.inWindow > 0) return { dedicated, away: null };
  const others = (await listHandymen()).filter((h) => h.id !== dedicated.id);
  let cover: HandymanCard | null = null;
  let most = 0;
  for (const other of others) {
    const free = (await freeStarts(customerId, block, other.id, context?.now ?? now, context))
      .inWindow;
    if (free > most) {
      most = free;
      cover = other;
    }
  }
  return {
    dedicated,
    away: {
      until: his.firstDay,
      untilLabel: his.firstDay ? monthDay(his.firstDay) : null,
      cover,
    },
  };
}

/** "December 14". */
function monthDay(date: IsoDate) {
  return longDate(date)
    .replace(/^[A-Za-z]+, /, "")
    .replace(/, \d{4}$/, "");
}
