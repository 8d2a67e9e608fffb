import crypto from "node:crypto";
import { lt, sql } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { actionKeys } from "~/db/schema";

/*
 * Idempotency keys (ADR 048): a form that must be applied once carries a key generated when
 * the page is drawn; the action claims the key in the same transaction as its change, and the
 * primary key of action_keys refuses a second claim. A form sent twice (a retry on a poor
 * connection, a double tap) is applied once; the second post is answered as the first was.
 */

const KEY = /^[A-Za-z0-9_-]{16,64}$/;

/** What a form sent twice is answered: it was applied the first time, and only then. */
export const ALREADY_DONE = "Already done: this was sent twice and applied once.";

/** What a form without its key (a page drawn before keys, or a hand-made post) is answered. */
export const FORM_OUT_OF_DATE = "This form is out of date. Please try again.";

/** A fresh key for one form on one page. */
export function newActionKey() {
  return crypto.randomBytes(12).toString("base64url");
}

export function isActionKey(value: unknown): value is string {
  return typeof value === "string" && KEY.test(value);
}

/**
 * Claims `key` for this action inside the caller's transaction: true the first time, false when
 * it was already applied (then the caller changes nothing). A concurrent claim of the same key
 * waits on the first one's row and gets false once it commits.
 */
export async function claimActionKey(
  tx: DbOrTx,
  input: { key: string; actorId: string; action: string },
): Promise<boolean> {
  const claimed = await tx
    .insert(actionKeys)
    .values(input)
    .onConflictDoNothing({ target: actionKeys.key })
    .returning({ key: actionKeys.key });
  return claimed.length > 0;
}

/** How long a key is remembered: a retry comes within minutes, not weeks. */
export const ACTION_KEY_RETENTION_DAYS = 30;

/**
 * Forgets keys claimed more than `days` days before `now` (housekeeping runs it every hour, ADR
 * 075); returns how many went. A form posted again within those days is still applied once.
 */
export async function forgetOldActionKeys(tx: DbOrTx, options: { now?: Date; days?: number } = {}) {
  const { now = new Date(), days = ACTION_KEY_RETENTION_DAYS } = options;
  const cutoff = new Date(now.getTime() - days * 24 * 60 * 60_000);
  const gone = await tx
    .delete(actionKeys)
    .where(lt(actionKeys.createdAt, cutoff))
    .returning({ key: actionKeys.key });
  return gone.length;
}

/** Whether the key was already applied (the photo upload checks before it reads its files). */
export async function isActionKeyClaimed(tx: DbOrTx, key: string) {
  const rows = await tx
    .select({ key: actionKeys.key })
    .from(actionKeys)
    .where(sql`${actionKeys.key} = ${key}`);
  return rows.length > 0;
}
