import crypto from "node:crypto";
import { and, count, desc, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { profiles, textCodePauses, textCodes, user, type TextCodePurpose } from "~/db/schema";
import { claimActionKey } from "~/lib/action-keys.server";
import { authSecret } from "~/lib/auth-secret.server";
import { enqueue } from "~/lib/outbox.server";
import { hit, type RateLimitResult } from "~/lib/rate-limit.server";
import { sealText } from "~/lib/texts.server";
import { alertOffice, textCodeText } from "~/features/notifications/index.server";

/*
 * Codes by text (ADR 086): to sign in with a verified mobile, and to verify the mobile first.
 * A code is six random digits, texted once and kept only as an HMAC under the auth secret (the
 * text itself waits in the outbox sealed, never in clear). It works for 5 minutes and 3 tries;
 * a newer code voids the older ones. Texts are limited per number (one a minute, five a day)
 * and per client address, and all of them pause, with the office alerted, when few of the codes
 * sent in the last hour were entered (SMS pumping: someone paid per text sent to numbers they
 * own). Every function takes `now`, so the tests move the clock.
 */

export const CODE_LIFETIME_MS = 5 * 60_000;
export const CODE_TRIES = 3;
export const NUMBER_COOLDOWN_MS = 60_000;
export const NUMBER_DAILY_LIMIT = 5;
const DAY_MS = 24 * 60 * 60_000;
/** Code texts asked for from one client address (often many people: an office, a carrier). */
export const ADDRESS_HOURLY_LIMIT = 10;
const HOUR_MS = 60 * 60_000;
/** Pumping: at least this many codes sent in the last hour... */
export const PUMPING_MIN_SENT = 20;
/** ...of which fewer than this share entered: sending pauses for PAUSE_MS. */
export const PUMPING_MIN_ENTERED_SHARE = 0.2;
export const PAUSE_MS = HOUR_MS;

/** The advisory lock class of code sending and checking (the second number: the phone's hash). */
const LOCK_CLASS = 0x5458_5443; // "TXTC"

export function hashCode(phone: string, code: string) {
  return crypto
    .createHmac("sha256", authSecret())
    .update(`text-code\0${phone}\0${code}`)
    .digest("base64url");
}

function newCode() {
  return String(crypto.randomInt(0, 1_000_000)).padStart(6, "0");
}

export type CodeRequest = {
  purpose: TextCodePurpose;
  /** E.164, already checked by codeMobile. */
  phone: string;
  /** Verify: the signed-in person asking; sign-in: null (the number names the account). */
  userId: string | null;
  clientAddress: string;
  /** The form's idempotency key: a form sent twice texts once. */
  key: string;
  now?: Date;
};

export type CodeRequestOutcome =
  /** A code was texted, or (sign-in) the number has no verified account: the same answer. */
  | { status: "answered" }
  /** The same form again (a double tap): answered as the first, nothing sent. */
  | { status: "repeat" }
  | { status: "limited"; minutes: number }
  | { status: "paused" };

/**
 * Asks for a code: counted against the limits whether or not the number has an account, so
 * the answer never tells the two apart. Only a verified mobile of an account (sign-in), or the
 * caller's own mobile (verify), gets a text.
 */
export async function requestTextCode(request: CodeRequest): Promise<CodeRequestOutcome> {
  const now = request.now ?? new Date();
  const claimed = await claimActionKey(db(), {
    key: request.key,
    actorId: request.userId ?? "visitor",
    action: `text-code:${request.purpose}`,
  });
  if (!claimed) return { status: "repeat" };
  const limited = await hitLimits(request.phone, request.clientAddress, now.getTime());
  if (!limited.allowed) return { status: "limited", minutes: limited.minutes };

  return db().transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}, 0)`);
    if (await pausedOrPausing(tx, now)) return { status: "paused" } as const;
    const userId =
      request.purpose === "sign-in"
        ? await verifiedAccount(tx, request.phone)
        : await ownMobile(tx, request.userId, request.phone);
    if (!userId) return { status: "answered" } as const;
    // A newer code voids the older ones: one code works at a time.
    await tx
      .update(textCodes)
      .set({ voidedAt: now })
      .where(
        and(
          eq(textCodes.phone, request.phone),
          eq(textCodes.purpose, request.purpose),
          isNull(textCodes.usedAt),
          isNull(textCodes.voidedAt),
        ),
      );
    const code = newCode();
    const expiresAt = new Date(now.getTime() + CODE_LIFETIME_MS);
    await tx.insert(textCodes).values({
      purpose: request.purpose,
      phone: request.phone,
      userId,
      codeHash: hashCode(request.phone, code),
      createdAt: now,
      expiresAt,
    });
    await enqueue(
      tx,
      "sms",
      {
        to: request.phone,
        kind: "text-code",
        body: "A code to sign in or verify the mobile (not kept)",
        sealed: await sealText(textCodeText(code, request.purpose)),
        expiresAt: expiresAt.toISOString(),
      },
      { recipientId: userId },
    );
    return { status: "answered" } as const;
  });
}

/** Per client address (10 an hour), then per number: one a minute and five a day. */
async function hitLimits(phone: string, clientAddress: string, now: number) {
  const checks: [string, number, number][] = [
    [`text-code:ip:${clientAddress}`, ADDRESS_HOURLY_LIMIT, HOUR_MS],
    [`text-code:phone-minute:${phone}`, 1, NUMBER_COOLDOWN_MS],
    [`text-code:phone-day:${phone}`, NUMBER_DAILY_LIMIT, DAY_MS],
  ];
  let result: RateLimitResult = { allowed: true };
  for (const [key, limit, windowMs] of checks) {
    result = await hit(key, limit, windowMs, now);
    if (!result.allowed) return result;
  }
  return result;
}

/**
 * Whether sending is paused: a pause running now, or one started now because at least
 * PUMPING_MIN_SENT codes were sent in the last hour and fewer than PUMPING_MIN_ENTERED_SHARE of
 * them were entered (the office is alerted once, when the pause starts).
 */
async function pausedOrPausing(tx: DbOrTx, now: Date) {
  const [running] = await tx
    .select({ id: textCodePauses.id })
    .from(textCodePauses)
    .where(and(gt(textCodePauses.endsAt, now), sql`${textCodePauses.startedAt} <= ${now}`))
    .limit(1);
  if (running) return true;
  const since = new Date(now.getTime() - HOUR_MS);
  const [figures] = await tx
    .select({ sent: count(), entered: count(textCodes.usedAt) })
    .from(textCodes)
    .where(and(gt(textCodes.createdAt, since), sql`${textCodes.createdAt} <= ${now}`));
  const { sent, entered } = figures;
  if (sent < PUMPING_MIN_SENT || entered >= sent * PUMPING_MIN_ENTERED_SHARE) return false;
  await tx.insert(textCodePauses).values({
    startedAt: now,
    endsAt: new Date(now.getTime() + PAUSE_MS),
    sent,
    entered,
  });
  await alertOffice(tx, {
    subject: "Text sign-in codes paused",
    customerName: "Text sign-in codes",
    staffPath: "/employee",
    lines: [
      `${sent} codes were texted in the last hour and only ${entered} were entered: someone may be asking for codes to numbers they are paid for (SMS pumping).`,
      "No code is texted for the next hour. Members can still sign in with their e-mail and password.",
      "Check the texts sent under Twilio's logs; if it goes on, ask Twilio to block the numbers.",
    ],
  });
  return true;
}

/** The account whose verified mobile this is (an e-mail confirmed too), or null. */
export async function verifiedAccount(tx: DbOrTx, phone: string) {
  const [row] = await tx
    .select({ userId: profiles.userId })
    .from(profiles)
    .innerJoin(user, eq(user.id, profiles.userId))
    .where(
      and(
        eq(profiles.mobilePhone, phone),
        isNotNull(profiles.mobileVerifiedAt),
        eq(user.emailVerified, true),
      ),
    )
    .limit(1);
  return row?.userId ?? null;
}

async function ownMobile(tx: DbOrTx, userId: string | null, phone: string) {
  if (!userId) return null;
  const [row] = await tx
    .select({ userId: profiles.userId })
    .from(profiles)
    .where(and(eq(profiles.userId, userId), eq(profiles.mobilePhone, phone)));
  return row?.userId ?? null;
}

export type CodeCheck =
  | { ok: true; codeId: string; userId: string }
  /** Wrong, void (3 tries), expired or never sent: one answer for all of them. */
  | { ok: false };

/**
 * Checks a code against the number's working code: a wrong one uses a try (the third voids
 * it), the right one is used up. Under the number's lock, so two posts racing each other cannot
 * both use the same code or share the same try.
 */
export async function checkTextCode(input: {
  purpose: TextCodePurpose;
  phone: string;
  /** Verify: only the caller's own code. */
  userId?: string;
  code: string;
  now?: Date;
}): Promise<CodeCheck> {
  const now = input.now ?? new Date();
  return db().transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(${input.phone}))`);
    const [row] = await tx
      .select({
        id: textCodes.id,
        userId: textCodes.userId,
        codeHash: textCodes.codeHash,
        tries: textCodes.tries,
      })
      .from(textCodes)
      .where(
        and(
          eq(textCodes.phone, input.phone),
          eq(textCodes.purpose, input.purpose),
          isNull(textCodes.usedAt),
          isNull(textCodes.voidedAt),
          gt(textCodes.expiresAt, now),
          input.userId ? eq(textCodes.userId, input.userId) : undefined,
        ),
      )
      .orderBy(desc(textCodes.createdAt))
      .limit(1);
    if (!row) return { ok: false } as const;
    const expected = Buffer.from(row.codeHash);
    const given = Buffer.from(hashCode(input.phone, input.code));
    const right = expected.length === given.length && crypto.timingSafeEqual(expected, given);
    const tries = row.tries + 1;
    await tx
      .update(textCodes)
      .set({
        tries,
        ...(right ? { usedAt: now } : tries >= CODE_TRIES ? { voidedAt: now } : {}),
      })
      .where(eq(textCodes.id, row.id));
    return right ? ({ ok: true, codeId: row.id, userId: row.userId } as const) : { ok: false };
  });
}

/** Marks the caller's mobile verified (their code was right); false when another account has it. */
export async function markMobileVerified(userId: string, phone: string, now = new Date()) {
  try {
    const updated = await db()
      .update(profiles)
      .set({ mobileVerifiedAt: now })
      .where(and(eq(profiles.userId, userId), eq(profiles.mobilePhone, phone)))
      .returning({ userId: profiles.userId });
    return updated.length > 0 ? "verified" : "changed";
  } catch (error) {
    // profiles_verified_mobile_idx: this number already signs in to another account.
    const cause = ((error as { cause?: unknown }).cause ?? error) as { code?: string };
    if (cause.code === "23505") return "taken";
    throw error;
  }
}

/** The caller's mobile and whether it may sign them in (Profile Settings). */
export async function mobileStatus(userId: string) {
  const [row] = await db()
    .select({ phone: profiles.mobilePhone, verifiedAt: profiles.mobileVerifiedAt })
    .from(profiles)
    .where(eq(profiles.userId, userId));
  return { phone: row?.phone ?? null, verified: Boolean(row?.phone && row.verifiedAt) };
}
