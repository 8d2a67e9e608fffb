import crypto from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  account,
  appointments,
  appointmentTasks,
  homes,
  introCalls,
  leadEntries,
  membershipMinutesLedger,
  membershipMoneyLedger,
  membershipParts,
  memberships,
  membershipVisits,
  profiles,
  serviceRequests,
  user,
} from "~/db/schema";
import {
  EXTRA_VISIT,
  PARTS_APPROVAL_ABOVE_CENTS,
  PLANS,
  SHOPPING_FEE_CENTS,
  type PlanId,
} from "~/content/plans";
import { chargeForPeriod, type Billing, type IsoDate } from "~/features/memberships/bank";
import { quoteCancellation } from "~/features/memberships/settlement";
import { DEFAULT_BUSINESS } from "~/lib/business";
import { addDays, daysBetween } from "~/lib/business-calendar";

/*
 * The bench data set (issues 30 and 31): a business three years on, 2,000 members who joined
 * over those years (more each month), a third of whom canceled, 10 handymen, their visits, the
 * parts bought for them, and the leads and intro calls that came before. Every row has the shape
 * the product writes (the ledgers' running balances, one charge per period, a visit's block
 * reserved and its unused minutes returned, a canceled membership's refund by the rules of
 * bank.ts), but it is written in bulk: the whole history is computed here, in order, and inserted
 * a thousand rows at a time, so 2,000 members take seconds rather than the hour the one-by-one
 * product functions would.
 *
 * Logins: the demo's (seeded first on an empty database), the handymen's
 * handyman1..10@bench.example and the members' member1..2000@bench.example, all with the
 * password BENCH_PASSWORD.
 */

export const BENCH_PASSWORD = "Bench-pass-2026!";
export const BENCH_EMAIL_DOMAIN = "bench.example";

export type BenchSeedOptions = {
  /** The business day the history ends on (visits are booked up to 30 days after it). */
  today: IsoDate;
  members?: number;
  handymen?: number;
  years?: number;
  /** The random sequence (same seed, same data). */
  seed?: number;
};

export type BenchSeedCounts = Record<string, number>;

/** mulberry32: a small, fast, seeded random sequence. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ["Maria", "James", "Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia"];
const LAST = ["Alvarez", "Okafor", "Smith", "Johnson", "Nguyen", "Garcia", "Miller", "Davis"];
const CITIES = ["Atlanta", "Decatur", "Marietta", "Roswell", "Alpharetta", "Dunwoody", "Smyrna"];
const TASKS = [
  "Fix leaky kitchen faucet",
  "Patch drywall in the hallway",
  "Replace light fixture",
  "Clean gutters",
  "Install ceiling fan",
  "Repaint trim",
  "Fix squeaky door",
  "Caulk bathtub",
  "Mount TV",
  "Repair fence gate",
  "Install thermostat",
  "Seal deck",
];
const PARTS = ["Faucet cartridge", "Ceiling fan", "Door lock", "Thermostat", "Caulk and tape"];
const LEAD_SOURCES = ["home", "/atlanta", "/decatur", "/marietta", "/roswell", "/alpharetta"];

/** The visit slots of a handyman's day (two halves of two short blocks or one long one). */
const SLOTS = [
  ["08:00", "09:45"],
  ["10:00", "11:45"],
  ["13:00", "14:45"],
  ["15:00", "16:45"],
] as const;
const LONG_SLOTS = [
  ["08:00", "11:30"],
  ["13:00", "16:30"],
] as const;

/** An instant on a business day at a wall-clock hour (Eastern; the hour keeps the day). */
function at(date: IsoDate, hour: number, minute = 0) {
  const offset = isDaylightTime(date) ? "-04:00" : "-05:00";
  return new Date(
    `${date}T${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}:00${offset}`,
  );
}

/** US daylight time: second Sunday of March to first Sunday of November. */
function isDaylightTime(date: IsoDate) {
  const [y, m, d] = date.split("-").map(Number);
  if (m < 3 || m > 11) return false;
  if (m > 3 && m < 11) return true;
  const firstSunday = ((7 - new Date(Date.UTC(y, m - 1, 1)).getUTCDay()) % 7) + 1;
  return m === 3 ? d >= firstSunday + 7 : d < firstSunday;
}

function weekday(date: IsoDate) {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

type MinutesRow = typeof membershipMinutesLedger.$inferInsert;
type MoneyRow = typeof membershipMoneyLedger.$inferInsert;

async function insertAll<T extends Record<string, unknown>>(
  db: Database,
  table: Parameters<Database["insert"]>[0],
  rows: T[],
  chunk = 1000,
) {
  for (let i = 0; i < rows.length; i += chunk) {
    await db.insert(table).values(rows.slice(i, i + chunk) as never);
  }
}

/** Whether the bench data set is already in the database (its first handyman exists). */
export async function hasBenchData(db: Database) {
  const [row] = await db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, `handyman1@${BENCH_EMAIL_DOMAIN}`));
  return Boolean(row);
}

export async function seedBench(db: Database, options: BenchSeedOptions) {
  const today = options.today;
  const memberCount = options.members ?? 2000;
  const handymanCount = options.handymen ?? 10;
  const years = options.years ?? 3;
  const rand = random(options.seed ?? 20261126);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const first = addDays(today, -Math.round(years * 365.25));
  const span = daysBetween(first, today);
  const horizon = addDays(today, 30);
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const guaranteeDays = DEFAULT_BUSINESS.guaranteeDays;

  const users: (typeof user.$inferInsert)[] = [];
  const accounts: (typeof account.$inferInsert)[] = [];
  const profileRows: (typeof profiles.$inferInsert)[] = [];
  const homeRows: (typeof homes.$inferInsert)[] = [];
  const membershipRows: (typeof memberships.$inferInsert)[] = [];
  const minutesRows: MinutesRow[] = [];
  const moneyRows: MoneyRow[] = [];
  const appointmentRows: (typeof appointments.$inferInsert)[] = [];
  const visitRows: (typeof membershipVisits.$inferInsert)[] = [];
  const taskRows: (typeof appointmentTasks.$inferInsert)[] = [];
  const requestRows: (typeof serviceRequests.$inferInsert)[] = [];
  const partRows: (typeof membershipParts.$inferInsert)[] = [];
  const leadRows: (typeof leadEntries.$inferInsert)[] = [];
  const callRows: (typeof introCalls.$inferInsert)[] = [];

  const person = (email: string, firstName: string, lastName: string, isEmployee: boolean) => {
    const id = crypto.randomUUID();
    users.push({ id, name: `${firstName} ${lastName}`, email, emailVerified: true });
    accounts.push({
      id: crypto.randomUUID(),
      accountId: id,
      providerId: "credential",
      userId: id,
      password: passwordHash,
    });
    profileRows.push({
      userId: id,
      firstName,
      lastName,
      mobilePhone: `+1404555${String(users.length % 10000).padStart(4, "0")}`,
      isEmployee,
      ...(isEmployee ? { staffRole: "handyman" as const } : {}),
    });
    return id;
  };

  const handymen = Array.from({ length: handymanCount }, (_, i) =>
    person(`handyman${i + 1}@${BENCH_EMAIL_DOMAIN}`, pick(FIRST), `Handyman ${i + 1}`, true),
  );

  /* The handymen's calendars: day -> slot use per handyman (4 short slots each). */
  const calendar = new Map<IsoDate, Uint8Array>();
  function allocate(wanted: IsoDate, block: number) {
    for (let shift = 0; shift < 21; shift++) {
      const day = addDays(wanted, shift);
      const wd = weekday(day);
      if (wd === 0 || wd === 6) continue;
      let used = calendar.get(day);
      if (!used) calendar.set(day, (used = new Uint8Array(handymanCount * SLOTS.length)));
      const offset = Math.floor(rand() * handymanCount);
      for (let k = 0; k < handymanCount; k++) {
        const h = (offset + k) % handymanCount;
        const base = h * SLOTS.length;
        if (block === 210) {
          for (let half = 0; half < 2; half++) {
            if (!used[base + half * 2] && !used[base + half * 2 + 1]) {
              used[base + half * 2] = used[base + half * 2 + 1] = 1;
              return { day, handyman: handymen[h], times: LONG_SLOTS[half] };
            }
          }
        } else {
          for (let s = 0; s < SLOTS.length; s++) {
            if (!used[base + s]) {
              used[base + s] = 1;
              return { day, handyman: handymen[h], times: SLOTS[s] };
            }
          }
        }
      }
    }
    return undefined;
  }

  const takenCallSlots = new Set<number>();
  function lead(date: IsoDate, name: string, email: string, zipCode: string, withCall: boolean) {
    const createdAt = at(date, 9 + Math.floor(rand() * 10), Math.floor(rand() * 60));
    leadRows.push({
      name,
      email,
      zipCode,
      phone: "(404) 555-0199",
      message: `I would like to hear about the membership (${pick(TASKS).toLowerCase()}).`,
      formType: "contact",
      pageUrl: null,
      source: pick(LEAD_SOURCES),
      createdAt,
    });
    if (!withCall) return;
    // The call a few days later, on a free half hour (two people never share a slot).
    let slot = Math.floor(
      (createdAt.getTime() + (2 + Math.floor(rand() * 5)) * 86_400_000) / 1_800_000,
    );
    while (takenCallSlots.has(slot)) slot++;
    takenCallSlots.add(slot);
    callRows.push({
      name,
      email,
      phone: "(404) 555-0199",
      startsAt: new Date(slot * 1_800_000),
      createdAt,
    });
  }

  const planWeights: [PlanId, number][] = [
    ["essential", 0.3],
    ["complete", 0.5],
    ["total", 0.2],
  ];
  for (let i = 1; i <= memberCount; i++) {
    const firstName = pick(FIRST);
    const lastName = pick(LAST);
    const email = `member${i}@${BENCH_EMAIL_DOMAIN}`;
    const customerId = person(email, firstName, lastName, false);
    const homeId = crypto.randomUUID();
    const zipCode = `30${String(300 + (i % 400)).padStart(3, "0")}`;
    homeRows.push({
      id: homeId,
      customerId,
      address: `${100 + i} Peachtree St`,
      city: pick(CITIES),
      state: "GA",
      zipCode,
    });
    // Joins grow over the years: the start day's share of the span follows a square root.
    const startDate = addDays(first, Math.min(span, Math.floor(Math.sqrt(rand()) * span)));
    lead(
      addDays(startDate, -7 - Math.floor(rand() * 20)),
      `${firstName} ${lastName}`,
      email,
      zipCode,
      rand() < 0.8,
    );

    let r = rand();
    let plan: PlanId = "complete";
    for (const [id, weight] of planWeights) {
      if (r < weight) {
        plan = id;
        break;
      }
      r -= weight;
    }
    const terms = PLANS.find((p) => p.id === plan)!;
    const billing: Billing = rand() < 0.8 ? "monthly" : "annual";
    // About 3.5% leave each month: the month they leave (if before today) and the day in it.
    const monthsKept = Math.floor(Math.log(1 - rand()) / Math.log(1 - 0.035));
    const cancelCandidate = addDays(startDate, monthsKept * 30 + 1 + Math.floor(rand() * 28));
    const canceledOn = cancelCandidate <= today ? cancelCandidate : null;
    const lastDay = canceledOn ?? today;
    const usage = 0.3 + rand() * 0.6;
    const membershipId = crypto.randomUUID();

    type Event = { at: Date; order: number; apply: () => void };
    const events: Event[] = [];
    let bank = 0;
    let balance = 0;
    let chargesCents = 0;
    const minutes = (
      when: Date,
      row: Omit<MinutesRow, "membershipId" | "balanceAfter" | "createdAt">,
    ) => {
      bank += row.minutes;
      minutesRows.push({ ...row, membershipId, balanceAfter: bank, createdAt: when });
    };
    const money = (
      when: Date,
      row: Omit<MoneyRow, "membershipId" | "balanceAfter" | "createdAt">,
    ) => {
      balance += row.amountCents;
      moneyRows.push({ ...row, membershipId, balanceAfter: balance, createdAt: when });
    };

    let periods = 0;
    for (let n = 0; ; n++) {
      const charge = chargeForPeriod(terms, billing, startDate, n);
      if (charge.periodStart > lastDay) break;
      periods = n + 1;
      const when = at(charge.periodStart, 6);
      events.push({
        at: when,
        order: 0,
        apply: () => {
          chargesCents += charge.amountCents;
          money(when, {
            kind: "membership_charge",
            amountCents: charge.amountCents,
            description: `${terms.name}, ${billing}: period from ${charge.periodStart}`,
            periodStart: charge.periodStart,
          });
          minutes(when, { kind: "accrual", minutes: charge.minutes, note: "Hours paid" });
        },
      });
      // Paid by card two days later; a few recent ones still open.
      const paidOn = addDays(charge.periodStart, 2);
      if (paidOn <= today && !(daysBetween(paidOn, today) < 20 && rand() < 0.15)) {
        const paidAt = at(paidOn, 11);
        events.push({
          at: paidAt,
          order: 1,
          apply: () =>
            money(paidAt, {
              kind: "payment",
              amountCents: -charge.amountCents,
              description: "Payment by card",
              paymentMethod: "card",
              reference: `ch_${crypto.randomBytes(6).toString("hex")}`,
            }),
        });
      }
    }

    // Visits: each month of the membership, about `usage` of the month's hours asked for.
    const monthlyMinutes = terms.minutesPerYear / 12;
    const visitsEnd = canceledOn ? addDays(canceledOn, -1) : horizon;
    for (let day = startDate; day <= visitsEnd; day = addDays(day, 30)) {
      const wanted = (monthlyMinutes * usage) / 130;
      const count = Math.floor(wanted) + (rand() < wanted - Math.floor(wanted) ? 1 : 0);
      for (let v = 0; v < count; v++) {
        const wantedDay = addDays(day, 3 + Math.floor(rand() * 27));
        if (wantedDay > visitsEnd) continue;
        const long = rand() < 0.15;
        const block = long ? 210 : 105;
        const slot = allocate(wantedDay, block);
        if (!slot || slot.day > visitsEnd || slot.day > horizon) continue;
        const appointmentId = crypto.randomUUID();
        const requestId = crypto.randomUUID();
        const bookedOn = addDays(slot.day, -5 - Math.floor(rand() * 10));
        const bookedAt = at(
          bookedOn < startDate ? startDate : bookedOn > today ? today : bookedOn,
          7,
        );
        const past = slot.day < today;
        const canceledVisit = past ? rand() < 0.06 : false;
        const worked = Math.min(block, 15 * Math.ceil((block * (0.55 + rand() * 0.45)) / 15));
        const title = pick(TASKS);
        events.push({
          at: bookedAt,
          order: 2,
          apply: () => {
            const extra = bank < block;
            if (extra && (block !== EXTRA_VISIT.minutes || rand() < 0.7)) return;
            appointmentRows.push({
              id: appointmentId,
              customerId,
              homeId,
              assignedEmployeeId: slot.handyman,
              scheduledDate: slot.day,
              startTime: slot.times[0],
              endTime: slot.times[1],
              status: "booked",
              createdAt: bookedAt,
            });
            requestRows.push({
              id: requestId,
              homeId,
              customerId,
              title,
              description: `${title}, please (asked on ${bookedOn}).`,
              status: past && !canceledVisit ? "complete" : "scheduled",
              createdAt: at(addDays(bookedOn, -2), 20),
              updatedAt: bookedAt,
            });
            taskRows.push({ appointmentId, taskDescription: title, serviceRequestId: requestId });
            const visit: typeof membershipVisits.$inferInsert = {
              appointmentId,
              membershipId,
              blockMinutes: block,
              isExtra: extra,
              extraReason: extra ? "Hours used up" : null,
              status: "reserved",
              createdAt: bookedAt,
              updatedAt: bookedAt,
            };
            visitRows.push(visit);
            if (extra) {
              money(bookedAt, {
                kind: "extra_visit",
                amountCents: EXTRA_VISIT.priceCents,
                description: `Extra visit on ${slot.day}`,
                appointmentId,
              });
            } else {
              minutes(bookedAt, {
                kind: "reserve",
                minutes: -block,
                appointmentId,
                note: `Visit on ${slot.day} reserved`,
              });
            }
            if (!past) return;
            if (canceledVisit) {
              const releasedAt = at(addDays(slot.day, -1), 12);
              visit.status = "released";
              events.push({
                at: releasedAt,
                order: 3,
                apply: () => {
                  if (!extra)
                    minutes(releasedAt, {
                      kind: "release",
                      minutes: block,
                      appointmentId,
                      note: `Visit on ${slot.day} canceled`,
                    });
                },
              });
              return;
            }
            const doneAt = at(slot.day, 17, 30);
            visit.status = "completed";
            visit.minutesWorked = worked;
            visit.completedAt = doneAt;
            visit.completedBy = slot.handyman;
            events.push({
              at: doneAt,
              order: 3,
              apply: () => {
                if (!extra && block > worked)
                  minutes(doneAt, {
                    kind: "return",
                    minutes: block - worked,
                    appointmentId,
                    note: `Visit on ${slot.day}: back`,
                  });
              },
            });
            // A part now and then, bought when approved (over $100 the member decides).
            if (rand() < 0.12) {
              const costCents = 1_500 + Math.floor(rand() * 280) * 100 + Math.floor(rand() * 100);
              const needsApproval = costCents > PARTS_APPROVAL_ABOVE_CENTS;
              const partId = crypto.randomUUID();
              const createdAt = at(slot.day, 15);
              const recent = daysBetween(slot.day, today) < 8;
              const decidedOn = addDays(slot.day, Math.floor(rand() * 6));
              const status = !needsApproval
                ? "bought"
                : recent && rand() < 0.7
                  ? "pending_approval"
                  : rand() < 0.8
                    ? "bought"
                    : "declined";
              const decided = needsApproval && status !== "pending_approval";
              const boughtOn = needsApproval ? addDays(decidedOn, 1) : addDays(slot.day, 1);
              const bought = status === "bought" && boughtOn <= today;
              partRows.push({
                id: partId,
                membershipId,
                appointmentId,
                description: pick(PARTS),
                costCents,
                needsApproval,
                status: bought ? "bought" : status === "bought" ? "approved" : status,
                decidedAt: decided ? at(decidedOn, 19) : null,
                decidedBy: decided ? customerId : null,
                boughtAt: bought ? at(boughtOn, 10) : null,
                boughtBy: bought ? slot.handyman : null,
                createdBy: slot.handyman,
                createdAt,
                updatedAt: createdAt,
              });
              if (bought) {
                const boughtAt = at(boughtOn, 10);
                events.push({
                  at: boughtAt,
                  order: 4,
                  apply: () => {
                    money(boughtAt, {
                      kind: "part",
                      amountCents: costCents,
                      description: `Part (visit on ${slot.day})`,
                      partId,
                      appointmentId,
                    });
                    money(boughtAt, {
                      kind: "shopping_fee",
                      amountCents: SHOPPING_FEE_CENTS,
                      description: `Shopping fee (visit on ${slot.day})`,
                      appointmentId,
                    });
                    const paidAt = at(addDays(boughtOn, 1), 10);
                    if (addDays(boughtOn, 1) <= today)
                      events.push({
                        at: paidAt,
                        order: 5,
                        apply: () =>
                          money(paidAt, {
                            kind: "payment",
                            amountCents: -(costCents + SHOPPING_FEE_CENTS),
                            description: "Payment by card",
                            paymentMethod: "card",
                          }),
                      });
                  },
                });
              }
            }
          },
        });
      }
    }

    if (canceledOn) {
      const canceledAt = at(canceledOn, 16);
      events.push({
        at: canceledAt,
        order: 9,
        apply: () => {
          const quote = quoteCancellation({
            terms,
            startDate,
            cancelDate: canceledOn,
            guaranteeDays,
            minutesLeft: bank,
            membershipChargesCents: chargesCents,
          });
          if (quote.minutesRefunded > 0)
            minutes(canceledAt, {
              kind: "refund",
              minutes: -quote.minutesRefunded,
              note: "Membership canceled: unused hours",
            });
          if (quote.refundCents > 0)
            money(canceledAt, {
              kind: "refund",
              amountCents: -quote.refundCents,
              description:
                quote.rule === "guarantee" ? "Refund: guarantee" : "Refund: unused hours",
            });
        },
      });
    }

    // Play the membership's history in time order (events may add later events).
    const done: Event[] = [];
    while (events.length) {
      events.sort((a, b) => a.at.getTime() - b.at.getTime() || a.order - b.order);
      const next = events.shift()!;
      next.apply();
      done.push(next);
    }
    membershipRows.push({
      id: membershipId,
      customerId,
      homeId,
      plan,
      planName: terms.name,
      monthlyPriceCents: terms.monthlyPriceCents,
      minutesPerYear: terms.minutesPerYear,
      visitsPerYear: terms.visitsPerYear,
      billing,
      status: canceledOn ? "canceled" : "active",
      startDate,
      periodsCharged: periods,
      minutesAvailable: bank,
      balanceCents: balance,
      canceledOn,
      canceledAt: canceledOn ? at(canceledOn, 16) : null,
      createdAt: at(startDate, 6),
      updatedAt: at(lastDay, 16),
    });
  }

  // Leads that did not become members: three for every member.
  for (let i = 0; i < memberCount * 3; i++) {
    const date = addDays(first, Math.floor(Math.sqrt(rand()) * span));
    const name = `${pick(FIRST)} ${pick(LAST)}`;
    lead(date, name, `lead${i + 1}@${BENCH_EMAIL_DOMAIN}`, "30303", rand() < 0.3);
  }

  // Ledger rows go in in time order, so their sequence numbers follow it.
  const byTime = <T extends { createdAt?: Date | null }>(rows: T[]) =>
    rows.sort((a, b) => a.createdAt!.getTime() - b.createdAt!.getTime());
  const started = Date.now();
  await db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await insertAll(t, user, users);
    await insertAll(t, account, accounts);
    await insertAll(t, profiles, profileRows);
    await insertAll(t, homes, homeRows);
    await insertAll(t, memberships, membershipRows);
    await insertAll(t, serviceRequests, requestRows);
    await insertAll(t, appointments, appointmentRows);
    await insertAll(t, appointmentTasks, taskRows);
    await insertAll(t, membershipVisits, visitRows);
    await insertAll(t, membershipParts, partRows);
    await insertAll(t, membershipMinutesLedger, byTime(minutesRows));
    await insertAll(t, membershipMoneyLedger, byTime(moneyRows));
    await insertAll(t, leadEntries, leadRows);
    await insertAll(t, introCalls, callRows);
    // A visit starts booked (the trigger of ADR 046); its end follows, as the product writes it.
    await t.execute(sql`
      update appointments a set status = case v.status when 'completed' then 'completed' else 'canceled' end::appointment_status
      from membership_visits v
      where v.appointment_id = a.id and v.status in ('completed', 'released')`);
    await t.execute(sql`
      update appointment_tasks t set outcome = 'done'
      from membership_visits v
      where v.appointment_id = t.appointment_id and v.status = 'completed'`);
  });
  await db.execute(sql`analyze`);
  return {
    counts: {
      members: membershipRows.length,
      active: membershipRows.filter((m) => m.status === "active").length,
      handymen: handymen.length,
      visits: visitRows.length,
      parts: partRows.length,
      "hours ledger entries": minutesRows.length,
      "money ledger entries": moneyRows.length,
      leads: leadRows.length,
      "intro calls": callRows.length,
    } satisfies BenchSeedCounts,
    insertMs: Date.now() - started,
  };
}
