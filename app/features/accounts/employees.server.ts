import { and, asc, eq } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { profiles, user } from "~/db/schema";
import { STAFF_ROLES, type StaffRole } from "~/db/staff-role";

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
    name: [r.firstName, r.lastName].filter(Boolean).join(" ") || r.email,
    role: r.role,
  }));
}

export function isStaffRole(value: unknown): value is StaffRole {
  return (STAFF_ROLES as readonly unknown[]).includes(value);
}

/**
 * Makes an employee office staff or a handyman (ADR 047). Returns false when `employeeId` is
 * not an employee (nothing changes).
 */
export async function setStaffRole(
  employeeId: string,
  role: StaffRole,
  database: DbOrTx = db(),
): Promise<boolean> {
  const changed = await database
    .update(profiles)
    .set({ staffRole: role })
    .where(and(eq(profiles.userId, employeeId), eq(profiles.isEmployee, true)))
    .returning({ id: profiles.userId });
  return changed.length > 0;
}
