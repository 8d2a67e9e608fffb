/*
 * The instants the suite is run at a second time, with the machine's clock moved (issue 33): a
 * test that compares a fixed date with the real clock passes today and fails some day later; run
 * at these instants, it fails today instead.
 *
 *   npx tsx scripts/moved-clock.ts friday-night   → seconds to add to the clock
 *   npx tsx scripts/moved-clock.ts after-midnight → seconds to add to the clock
 *
 * friday-night: 23:30 Eastern on the first Friday at least 400 days ahead whose next weekday is
 * a closed day (a holiday Monday), so "the next business day" is four days away and "today" in
 * UTC is already Saturday. after-midnight: 00:30 Eastern 400 days ahead, when the UTC date and
 * the business date agree but the business day has just turned. Both are relative to the real
 * clock, so they keep moving ahead of it.
 */
import {
  addDays,
  businessToday,
  closedDays,
  isBusinessDay,
  weekday,
  zonedInstant,
} from "../app/lib/business-calendar";

const AHEAD_DAYS = 400;

function fridayNight(now: Date) {
  const closed = closedDays();
  let day = addDays(businessToday(now), AHEAD_DAYS);
  while (!(weekday(day) === 5 && !isBusinessDay(addDays(day, 3), closed))) day = addDays(day, 1);
  return zonedInstant(day, 23 * 60 + 30);
}

function afterMidnight(now: Date) {
  return zonedInstant(addDays(businessToday(now), AHEAD_DAYS), 30);
}

const which = process.argv[2];
const now = new Date();
const target =
  which === "friday-night"
    ? fridayNight(now)
    : which === "after-midnight"
      ? afterMidnight(now)
      : null;
if (!target) {
  console.error("usage: moved-clock.ts friday-night|after-midnight");
  process.exit(2);
}
if (process.argv.includes("--iso")) console.log(target.toISOString());
else console.log(Math.round((target.getTime() - now.getTime()) / 1000));
