import { and, eq, isNull, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { homes, profiles, leads, user } from "~/db/schema";
import { verifiedMarkFor } from "~/lib/mobile-number.server";
import { storedPhone } from "~/lib/phone";
import type { HomeAddress, HomeInput, ProfileInput } from "./schema";
import { personName } from "~/lib/names";

/*
 * A person's own profile and home. Every function takes the acting user's id and touches only
 * that user's rows; is_employee is never among the columns written.
 */

export async function getHome(userId: string): Promise<HomeAddress | null> {
  const [row] = await db()
    .select({
      id: homes.id,
      address: homes.address,
      city: homes.city,
      state: homes.state,
      zipCode: homes.zipCode,
      propertyNotes: homes.propertyNotes,
    })
    .from(homes)
    .where(eq(homes.customerId, userId))
    .limit(1);
  return row ?? null;
}

/**
 * The property setup dialog: creates the one home of a customer. A second submission (another
 * tab, a double click) finds the home already there and changes nothing.
 */
export async function createFirstHome(userId: string, input: HomeInput) {
  await db()
    .insert(homes)
    .values({ customerId: userId, ...input })
    .onConflictDoNothing({ target: homes.customerId });
  // The leads with the confirmed address are this person's (ADR 060). The confirmation's own
  // hook links them; this second, idempotent pass keeps a walk-thru booked for the lead hers
  // should that hook have been lost (it runs after the confirmation's answer is decided).
  await db()
    .update(leads)
    .set({ customerId: userId })
    .where(
      and(
        isNull(leads.customerId),
        sql`${leads.email} = (select lower(${user.email}) from ${user} where ${user.id} = ${userId} and ${user.emailVerified})`,
      ),
    );
}

/** The Home Address card: updates the home, or creates it when there is none yet. */
export async function saveHome(userId: string, input: HomeInput): Promise<"created" | "updated"> {
  const existing = await getHome(userId);
  if (existing) {
    await db().update(homes).set(input).where(eq(homes.customerId, userId));
    return "updated";
  }
  const inserted = await db()
    .insert(homes)
    .values({ customerId: userId, ...input })
    .onConflictDoUpdate({ target: homes.customerId, set: input })
    .returning({ id: homes.id });
  return inserted.length ? "created" : "updated";
}

/** Profile Information: first name, last name and phone only. */
export async function updateProfile(userId: string, input: ProfileInput) {
  // The one number (ADR 085): the Profile's 'Phone Number' is the mobile texts go to.
  const values = {
    firstName: input.firstName,
    lastName: input.lastName,
    mobilePhone: storedPhone(input.phone),
  };
  await db()
    .insert(profiles)
    .values({ userId, ...values })
    .onConflictDoUpdate({
      target: profiles.userId,
      // A new number signs in only once verified again (ADR 086).
      set: { ...values, mobileVerifiedAt: verifiedMarkFor(values.mobilePhone) },
    });
  // The account's display name (used in e-mails) follows the profile.
  const name = personName(input.firstName, input.lastName);
  if (name) await db().update(user).set({ name }).where(eq(user.id, userId));
}
