import { asc, eq } from "drizzle-orm";
import { db, type Tx } from "~/db/client.server";
import { profiles, user, visitOverrides } from "~/db/schema";
import { personName } from "~/lib/names";

/*
 * 'Book anyway' (ADR 050): a staff booking or move to a time with warnings (a closed day, time
 * off, outside working hours, the past) is written only when staff confirm it, and the visit
 * keeps who did, what was wrong and why.
 */

/** The time has warnings and staff have not chosen 'Book anyway': nothing was written. */
export class BookAnywayNeededError extends Error {
  constructor(readonly warnings: string[]) {
    super("Please check before booking: " + warnings.join(" "));
    this.name = "BookAnywayNeededError";
  }
}

/** The warnings of every check, listed together: thrown unless staff chose 'Book anyway'. */
export function unlessBookedAnyway(warnings: string[], answer: { bookAnyway?: boolean }) {
  if (warnings.length && !answer.bookAnyway) throw new BookAnywayNeededError(warnings);
  return warnings;
}

export const OVERRIDE_REASON_MAX_LENGTH = 200;

/** Staff's answer to the warnings: whether they chose 'Book anyway', and why. */
export type Override = { bookAnyway: boolean; reason?: string | null };

/** Reads 'Book anyway' and its reason from a posted form. */
export function overrideFromForm(form: FormData): Override {
  const reason = form.get("overrideReason");
  return {
    bookAnyway: form.get("bookAnyway") === "on",
    reason:
      typeof reason === "string"
        ? reason
            .replace(/\p{Cc}/gu, " ")
            .trim()
            .slice(0, OVERRIDE_REASON_MAX_LENGTH) || null
        : null,
  };
}

/** Keeps an override on the visit, in the caller's transaction. */
export async function recordOverride(
  tx: Tx,
  input: {
    appointmentId: string;
    staffId: string;
    action: "book" | "move";
    warnings: string[];
    reason?: string | null;
  },
) {
  const [staff] = await tx
    .select({ firstName: profiles.firstName, lastName: profiles.lastName, email: user.email })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, input.staffId));
  const staffName = personName(staff?.firstName, staff?.lastName) || staff?.email || "Staff";
  await tx.insert(visitOverrides).values({
    appointmentId: input.appointmentId,
    staffId: input.staffId,
    staffName,
    action: input.action,
    warnings: input.warnings,
    reason: input.reason ?? null,
  });
}

/** A visit's overrides, oldest first (staff only: the caller checks). */
export function overridesOf(appointmentId: string) {
  return db()
    .select({
      id: visitOverrides.id,
      staffName: visitOverrides.staffName,
      action: visitOverrides.action,
      warnings: visitOverrides.warnings,
      reason: visitOverrides.reason,
      createdAt: visitOverrides.createdAt,
    })
    .from(visitOverrides)
    .where(eq(visitOverrides.appointmentId, appointmentId))
    .orderBy(asc(visitOverrides.createdAt));
}
