import fs from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { outbox, profiles, session, textCodes, user } from "~/db/schema";
import { updateProfile } from "~/features/accounts/profile.server";
import {
  pendingPhone,
  sendSignInCode,
  signInWithTextCode,
} from "~/features/accounts/text-code-sign-in.server";
import {
  ADDRESS_HOURLY_LIMIT,
  checkTextCode,
  CODE_LIFETIME_MS,
  markMobileVerified,
  NUMBER_DAILY_LIMIT,
  PAUSE_MS,
  PUMPING_MIN_SENT,
  requestTextCode,
} from "~/features/accounts/text-codes.server";
import { newActionKey } from "~/lib/action-keys.server";
import { env } from "~/lib/env.server";
import { runHousekeeping } from "~/lib/housekeeping.server";
import { deliverText, type TextPayload } from "~/lib/texts.server";
import { action as authApi } from "~/routes/api.auth";
import { createHome } from "../../server/seed/factories";
import {
  callAuthApi,
  cookieFrom,
  createTestAccount,
  nextClientAddress,
  ORIGIN,
  withAuthTestDatabase,
} from "../support/auth-api";
import { testDatabaseKind } from "../support/test-database";

/*
 * Sign-in with a text code (ADR 086): each limit with an injected clock (`now`), the same
 * answer for any number, the void code after 3 tries, the pumping pause and its alert, a double
 * tap that texts once, and the TOTP step that a code never replaces.
 */

const MINUTE = 60_000;
// Every test starts from its own instant, so the clock it moves is its own.
let base = Date.now();
function at(offsetMs: number) {
  return new Date(base + offsetMs);
}

let phoneCounter = 0;
/** A fresh, valid Atlanta number (+1 404 2xx xxxx). */
function freshPhone() {
  phoneCounter += 1;
  return `+1404${String(2_000_000 + phoneCounter).padStart(7, "0")}`;
}

async function member(options: { verified?: boolean; home?: boolean; phone?: string } = {}) {
  const phone = options.phone ?? freshPhone();
  const account = await createTestAccount("texter", {
    phone,
    mobileVerified: options.verified ?? true,
  });
  if (options.home !== false) await createHome(db(), account.id);
  return { ...account, phone };
}

function requestFor(cookie = "") {
  const headers = new Headers({ origin: ORIGIN });
  if (cookie) headers.set("cookie", cookie);
  return new Request(`${ORIGIN}/auth`, { method: "POST", headers });
}

async function codeTexts(phone: string) {
  return db()
    .select()
    .from(outbox)
    .where(and(eq(outbox.kind, "sms"), sql`${outbox.payload}->>'to' = ${phone}`));
}

/** Sends the last code texted to `phone` the product's way (DATA_DIR/sms) and reads it back. */
async function readCode(phone: string, now: Date) {
  const rows = await codeTexts(phone);
  const last = rows.sort((a, b) => +b.createdAt - +a.createdAt)[0];
  if (!last) throw new Error(`no text to ${phone}`);
  const outcome = await deliverText(last.payload as TextPayload, last.id, now);
  expect(outcome).toMatchObject({ status: "written" });
  const dir = path.join(env().dataDir, "sms");
  const file = fs.readdirSync(dir).find((name) => name.endsWith(`-${last.id}.txt`))!;
  const text = fs.readFileSync(path.join(dir, file), "utf8");
  return text.match(/: (\d{6}) is your/)![1];
}

async function ask(
  phone: string,
  now: Date,
  clientAddress = nextClientAddress(),
  key = newActionKey(),
) {
  return sendSignInCode({ mobilePhone: phone, key }, clientAddress, now);
}

describe(`sign-in with a text code (${testDatabaseKind()})`, () => {
  withAuthTestDatabase();
  beforeEach(async () => {
    await db().execute(
      sql`truncate text_codes, text_code_pauses, rate_limits, action_keys, outbox cascade`,
    );
    base += 3 * 24 * 60 * MINUTE;
  });

  it("Maria's verified mobile gets a code, kept only as a keyed hash, and it signs her in", async () => {
    const maria = await member();
    const asked = await ask("(404) " + maria.phone.slice(5, 8) + "-" + maria.phone.slice(8), at(0));
    expect(asked).toMatchObject({ type: "redirect", to: "/auth?step=text-code&notice=code-sent" });
    const cookie = cookieFrom(
      new Response(null, { headers: (asked as { headers: Headers }).headers }),
    );
    expect(pendingPhone(requestFor(cookie), base)).toBe(maria.phone);

    const [text] = await codeTexts(maria.phone);
    const code = await readCode(maria.phone, at(MINUTE));
    // Never in clear: not in the outbox row, not in the codes table.
    expect(JSON.stringify(text.payload)).not.toContain(code);
    const [row] = await db().select().from(textCodes).where(eq(textCodes.phone, maria.phone));
    expect(row.codeHash).not.toContain(code);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(CODE_LIFETIME_MS);

    const outcome = await signInWithTextCode(
      { code },
      requestFor(cookie),
      nextClientAddress(),
      at(MINUTE),
    );
    expect(outcome).toMatchObject({ type: "redirect", to: "/dashboard" });
    const cookies = (outcome as { headers: Headers }).headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/better-auth\.session_token=/);
    expect(cookies).toMatch(/known_device_/);
    const sessions = await db().select().from(session).where(eq(session.userId, maria.id));
    expect(sessions).toHaveLength(1);
    // The same code never signs in twice.
    const again = await signInWithTextCode(
      { code },
      requestFor(cookie),
      nextClientAddress(),
      at(MINUTE),
    );
    expect(again).toMatchObject({ type: "notice", notice: { kind: "error" } });
  });

  it("an unknown or unverified number gets the same answer and no text", async () => {
    const unverified = await member({ verified: false });
    const answers = [];
    for (const phone of [unverified.phone, freshPhone()]) answers.push(await ask(phone, at(0)));
    const known = await member();
    answers.push(await ask(known.phone, at(0)));
    expect(answers.map((a) => (a as { to: string }).to)).toEqual([
      "/auth?step=text-code&notice=code-sent",
      "/auth?step=text-code&notice=code-sent",
      "/auth?step=text-code&notice=code-sent",
    ]);
    expect(await codeTexts(unverified.phone)).toHaveLength(0);
    expect(await codeTexts(known.phone)).toHaveLength(1);
    expect(await db().select().from(outbox)).toHaveLength(1);
  });

  it("refuses numbers that are not US mobiles: toll-free, 900, Canada, nonsense", async () => {
    for (const phone of [
      "(800) 555-0100",
      "(888) 234-5678",
      "(900) 555-1234",
      "+1 416 555 0100",
      "12345",
    ]) {
      const outcome = await ask(phone, at(0));
      expect(outcome, phone).toMatchObject({ type: "notice", status: 400 });
    }
    expect(await db().select().from(outbox)).toHaveLength(0);
  });

  it("one text per number per minute and five a day, whatever the address", async () => {
    const maria = await member();
    expect(await ask(maria.phone, at(0))).toMatchObject({ type: "redirect" });
    expect(await ask(maria.phone, at(30_000))).toMatchObject({
      type: "notice",
      status: 429,
      notice: { description: "Please wait 1 minutes before trying again." },
    });
    for (let i = 1; i < NUMBER_DAILY_LIMIT; i++)
      expect(await ask(maria.phone, at(i * 61_000))).toMatchObject({ type: "redirect" });
    expect(await codeTexts(maria.phone)).toHaveLength(NUMBER_DAILY_LIMIT);
    const sixth = await ask(maria.phone, at(10 * MINUTE));
    expect(sixth).toMatchObject({ type: "notice", status: 429 });
    expect(await codeTexts(maria.phone)).toHaveLength(NUMBER_DAILY_LIMIT);
    // A day after the first, one more.
    expect(await ask(maria.phone, at(24 * 60 * MINUTE + 1000))).toMatchObject({ type: "redirect" });
    expect(await codeTexts(maria.phone)).toHaveLength(NUMBER_DAILY_LIMIT + 1);
  });

  it("one client address asks for at most 10 codes an hour", async () => {
    const address = nextClientAddress();
    for (let i = 0; i < ADDRESS_HOURLY_LIMIT; i++)
      expect(await ask(freshPhone(), at(i * 1000), address)).toMatchObject({ type: "redirect" });
    expect(await ask(freshPhone(), at(20 * MINUTE), address)).toMatchObject({ status: 429 });
    expect(await ask(freshPhone(), at(61 * MINUTE), address)).toMatchObject({ type: "redirect" });
  });

  it("a code works for 5 minutes", async () => {
    const maria = await member();
    await ask(maria.phone, at(0));
    const code = await readCode(maria.phone, at(0));
    const late = await checkTextCode({
      purpose: "sign-in",
      phone: maria.phone,
      code,
      now: at(CODE_LIFETIME_MS + 1),
    });
    expect(late.ok).toBe(false);
    const inTime = await checkTextCode({
      purpose: "sign-in",
      phone: maria.phone,
      code,
      now: at(CODE_LIFETIME_MS - 1000),
    });
    expect(inTime.ok).toBe(true);
  });

  it("three wrong tries void the code: the right one no longer works", async () => {
    const maria = await member();
    await ask(maria.phone, at(0));
    const code = await readCode(maria.phone, at(0));
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 3; i++)
      expect(
        (
          await checkTextCode({
            purpose: "sign-in",
            phone: maria.phone,
            code: wrong,
            now: at(1000),
          })
        ).ok,
      ).toBe(false);
    expect(
      (await checkTextCode({ purpose: "sign-in", phone: maria.phone, code, now: at(2000) })).ok,
    ).toBe(false);
    const [row] = await db().select().from(textCodes).where(eq(textCodes.phone, maria.phone));
    expect(row.tries).toBe(3);
    expect(row.voidedAt).not.toBeNull();
  });

  it("a double tap (the same form twice, at once) texts once and answers both alike", async () => {
    const maria = await member();
    const key = newActionKey();
    const address = nextClientAddress();
    const answers = await Promise.all([
      ask(maria.phone, at(0), address, key),
      ask(maria.phone, at(0), address, key),
    ]);
    expect(answers.map((a) => a.type)).toEqual(["redirect", "redirect"]);
    expect(await codeTexts(maria.phone)).toHaveLength(1);
  });

  it("few codes entered: sending pauses for an hour and the office is alerted once", async () => {
    const stranger = await member();
    // 20 codes texted in the last hour, none entered (numbers someone is paid for).
    await db()
      .insert(textCodes)
      .values(
        Array.from({ length: PUMPING_MIN_SENT }, (_, i) => ({
          purpose: "sign-in" as const,
          phone: freshPhone(),
          userId: stranger.id,
          codeHash: "x",
          createdAt: at(-30 * MINUTE + i * 1000),
          expiresAt: at(-25 * MINUTE),
        })),
      );
    const maria = await member();
    const paused = await ask(maria.phone, at(0));
    expect(paused).toMatchObject({ status: 503, notice: { title: "Text codes are paused" } });
    expect(await ask(freshPhone(), at(10 * MINUTE))).toMatchObject({ status: 503 });
    expect(await codeTexts(maria.phone)).toHaveLength(0);
    const alerts = (await db().select().from(outbox).where(eq(outbox.kind, "email"))).filter(
      (r) => (r.payload as { subject: string }).subject === "Text sign-in codes paused",
    );
    expect(alerts).toHaveLength(1);
    // After the pause, the old codes have left the hour: texts go again.
    expect(await ask(maria.phone, at(PAUSE_MS + MINUTE))).toMatchObject({ type: "redirect" });
    expect(await codeTexts(maria.phone)).toHaveLength(1);
  });

  it("enough codes entered: no pause", async () => {
    const stranger = await member();
    await db()
      .insert(textCodes)
      .values(
        Array.from({ length: PUMPING_MIN_SENT }, (_, i) => ({
          purpose: "sign-in" as const,
          phone: freshPhone(),
          userId: stranger.id,
          codeHash: "x",
          createdAt: at(-30 * MINUTE + i * 1000),
          expiresAt: at(-25 * MINUTE),
          usedAt: i < 4 ? at(-29 * MINUTE) : null,
        })),
      );
    const maria = await member();
    expect(await ask(maria.phone, at(0))).toMatchObject({ type: "redirect" });
  });

  it("with TOTP on, the code leads to the TOTP step, never to a session", async () => {
    const careful = await member();
    await db().update(user).set({ twoFactorEnabled: true }).where(eq(user.id, careful.id));
    const asked = await ask(careful.phone, at(0));
    const cookie = cookieFrom(
      new Response(null, { headers: (asked as { headers: Headers }).headers }),
    );
    const code = await readCode(careful.phone, at(0));
    const outcome = await signInWithTextCode(
      { code },
      requestFor(cookie),
      nextClientAddress(),
      at(1000),
    );
    expect(outcome.type).toBe("two-factor");
    const cookies = (outcome as { headers: Headers }).headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/better-auth\.two_factor=/);
    expect(cookies).not.toMatch(/better-auth\.session_token=[^;]/);
    expect(await db().select().from(session).where(eq(session.userId, careful.id))).toHaveLength(0);
  });

  it("a handyman verifies his mobile first; a changed number must be verified again", async () => {
    const phone = freshPhone();
    const handyman = await createTestAccount("handyman", {
      phone,
      isEmployee: true,
      staffRole: "handyman",
    });
    await ask(phone, at(0));
    expect(await codeTexts(phone)).toHaveLength(0);
    // Profile Settings: 'Verify'.
    const sent = await requestTextCode({
      purpose: "verify",
      phone,
      userId: handyman.id,
      clientAddress: nextClientAddress(),
      key: newActionKey(),
      now: at(2 * MINUTE),
    });
    expect(sent).toEqual({ status: "answered" });
    const code = await readCode(phone, at(2 * MINUTE));
    const checked = await checkTextCode({
      purpose: "verify",
      phone,
      userId: handyman.id,
      code,
      now: at(3 * MINUTE),
    });
    expect(checked.ok).toBe(true);
    expect(await markMobileVerified(handyman.id, phone)).toBe("verified");

    const asked = await ask(phone, at(4 * MINUTE));
    const cookie = cookieFrom(
      new Response(null, { headers: (asked as { headers: Headers }).headers }),
    );
    const signInCode = await readCode(phone, at(4 * MINUTE));
    const outcome = await signInWithTextCode(
      { code: signInCode },
      requestFor(cookie),
      nextClientAddress(),
      at(5 * MINUTE),
    );
    expect(outcome).toMatchObject({ type: "redirect", to: "/employee/today" });

    await updateProfile(handyman.id, {
      firstName: "Dana",
      lastName: "Whitfield",
      phone: "(678) 234-5678",
    });
    const [profile] = await db().select().from(profiles).where(eq(profiles.userId, handyman.id));
    expect(profile.mobileVerifiedAt).toBeNull();
    await updateProfile(handyman.id, {
      firstName: "Dana",
      lastName: "Whitfield",
      phone: "(678) 234-5678",
    });
  });

  it("one verified number signs in to one account only", async () => {
    const first = await member();
    const second = await member({ verified: false, phone: freshPhone() });
    await db()
      .update(profiles)
      .set({ mobilePhone: first.phone })
      .where(eq(profiles.userId, second.id));
    expect(await markMobileVerified(second.id, first.phone)).toBe("taken");
  });

  it("housekeeping forgets codes two days old", async () => {
    const maria = await member();
    await ask(maria.phone, at(0));
    expect(await runHousekeeping(at(24 * 60 * MINUTE))).toMatchObject({ textCodes: 0 });
    expect(await runHousekeeping(at(2 * 24 * 60 * MINUTE + MINUTE))).toMatchObject({
      textCodes: 1,
    });
  });

  it("the session endpoint is not reachable from outside", async () => {
    const response = await callAuthApi(authApi, {
      path: "/sign-in/phone-number",
      body: { codeId: "00000000-0000-4000-8000-000000000000" },
    });
    expect(response.status).toBe(404);
  });
});
