import { asc, eq } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { profiles, user } from "~/db/schema";

/** A member of staff as the 'Assign Employee' picker lists them. */
export type EmployeeChoice = { userId: string; name: string };

/** Employees for 'Assign Employee' (a handful of rows: they are staff). */
export async function listEmployees(database: DbOrTx = db()): Promise<EmployeeChoice[]> {
  const rows = await database
    .select({
      userId: profiles.userId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: user.email,
    })
    .from(profiles)
    .innerJoin(user, eq(user.id, profiles.userId))
    .where(eq(profiles.isEmployee, true))
    .orderBy(asc(profiles.firstName), asc(profiles.lastName));
  return rows.map((r) => ({
    userId: r.userId,
    name: [r.firstName, r.lastName].filter(Boolean).join(" ") || r.email,
  }));
}
