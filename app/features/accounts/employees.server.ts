import { and, asc, eq } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { profiles, user } from "~/db/schema";
import { STAFF_ROLES, type StaffRole } from "~/db/staff-role";
import { personName } from "~/lib/names";

/** A member of staff as the 'Assign Employee' picker lists them. */
export type EmployeeChoice = { userId: string; name: string; role: StaffRole };

/** Employees for 'Assign Employee' and the availability page's picker (a handful of rows). */
export async function listEmployees(database: DbOrTx = db()): Promise<EmployeeChoice[]> {
  const rows = await database
    .select({
      userId: profiles.userId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: user.email,
      role: profiles.staffRole,
    })
    .from(profiles)
    .innerJoin(user, eq(user.id, profiles.userId))
    .where(eq(profiles.isEmployee, true))
    .orderBy(asc(profiles.firstName), asc(profiles.lastName));
  return rows.map((r) => ({
    userId: r.userId,
    name: personName(r.firstName, r.lastName) || r.email,
    role: r.role,
  }));
}

export function isStaffRole(value: unknown): value is StaffRole {
  return (STAFF_ROLES as readonly unknown[]).includes(value);
}

/** What the office is told when the last office account would lose the office role. */
export const LAST_OFFICE_ACCOUNT_MESSAGE =
  "This is the only office account: make another employee office staff first, so someone can still run the office.";

/** The change would leave no office account: nobody could run the office (issue 40). */
export class LastOfficeAccountError extends Error {
  constructor() {
    super(LAST_OFFICE_ACCOUNT_MESSAGE);
    this.name = "LastOfficeAccountError";
  }
}

/**
 * Makes an employee office staff or a handyman (ADR 047). Returns false when `employeeId` is
 * not an employee (nothing changes). Throws LastOfficeAccountError when it would take the
 * office role from the last employee who has it: the office accounts are locked first, so two
 * office accounts demoting each other at once cannot both succeed.
 */
export async function setStaffRole(
  employeeId: string,
  role: StaffRole,
  database: DbOrTx = db(),
): Promise<boolean> {
  return database.transaction(async (tx) => {
    if (role !== "office") {
      const offices = await tx
        .select({ id: profiles.userId })
        .from(profiles)
        .where(and(eq(profiles.isEmployee, true), eq(profiles.staffRole, "office")))
        .for("update");
      if (offices.length === 1 && offices[0]!.id === employeeId) throw new LastOfficeAccountError();
    }
    const changed = await tx
      .update(profiles)
      .set({ staffRole: role })
      .where(and(eq(profiles.userId, employeeId), eq(profiles.isEmployee, true)))
      .returning({ id: profiles.userId });
    return changed.length > 0;
  });
}
