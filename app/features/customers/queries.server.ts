import { and, asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { OPEN_REQUEST_STATUSES } from "~/db/request-status";
import { appointments, homes, profiles, serviceRequests, user } from "~/db/schema";
import { foldedMatch, fullNameMatches } from "~/db/search";
import { phoneSearchDigits } from "~/lib/phone";
import { openRequestsOf } from "~/features/service-requests/index.server";
import { personName } from "~/lib/names";

/*
 * Customers as staff see them: the Customers tab of the employee dashboard (a paged, searchable
 * list) and the pickers of the Create Appointment dialog. Customers are profiles that are not
 * employees.
 */

export const CUSTOMERS_PAGE_SIZE = 25;
/** The Create Appointment customer picker lists this many at most; a search finds the others. */
export const CUSTOMER_PICKER_LIMIT = 200;

function customerSearch(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const digits = phoneSearchDigits(search);
  return or(
    fullNameMatches(search),
    foldedMatch(user.email, search),
    foldedMatch(profiles.mobilePhone, search),
    ...(digits ? [sql`${profiles.mobilePhone} like ${`%${digits}%`}`] : []),
  );
}

export type CustomerRow = {
  userId: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  phone: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  openRequests: number;
  nextAppointmentDate: string | null;
  nextAppointmentStart: string | null;
};

/** One page of customers ordered by first name (SPEC section 7), with their open requests
 * (status new or reviewed) and next appointment from `today` on. */
export async function listCustomers(
  options: { search?: string; page?: number; today: string },
  database: DbOrTx = db(),
): Promise<{
  customers: CustomerRow[];
  /** Customers matching the search (all of them without one). */
  total: number;
  /** Every customer, searched or not (the heading's '2 of 9 customers'). */
  allCustomers: number;
  page: number;
  pageCount: number;
}> {
  const where = and(eq(profiles.isEmployee, false), customerSearch(options.search));
  // A search matches e-mails too, so only a search's count reads the users; every customer is
  // counted from the profiles alone (a profile is its user's, ON DELETE CASCADE), without a
  // join over every account (ADR 077).
  const countOf = async (condition: typeof where, search: boolean) => {
    const counted = database.select({ total: sql<number>`count(*)::int` }).from(profiles);
    const [{ total }] = await (search
      ? counted.innerJoin(user, eq(user.id, profiles.userId)).where(condition)
      : counted.where(condition));
    return total;
  };
  const [total, allCustomers] = await Promise.all([
    countOf(where, Boolean(options.search)),
    options.search ? countOf(eq(profiles.isEmployee, false), false) : null,
  ]);
  const pageCount = Math.max(1, Math.ceil(total / CUSTOMERS_PAGE_SIZE));
  const page = Math.min(Math.max(1, options.page ?? 1), pageCount);

  const next = sql`(select ${appointments.scheduledDate}::text || ' ' || ${appointments.startTime}::text
      from ${appointments}
      where ${appointments.customerId} = ${profiles.userId}
        and ${appointments.status} in ('booked', 'on_the_way', 'in_progress')
        and ${appointments.scheduledDate} >= ${options.today}::date
      order by ${appointments.scheduledDate}, ${appointments.startTime} limit 1)`;
  const rows = await database
    .select({
      userId: profiles.userId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: user.email,
      phone: profiles.mobilePhone,
      address: homes.address,
      city: homes.city,
      state: homes.state,
      zipCode: homes.zipCode,
      openRequests: sql<number>`(select count(*)::int from ${serviceRequests}
        where ${serviceRequests.customerId} = ${profiles.userId}
          and ${inArray(serviceRequests.status, [...OPEN_REQUEST_STATUSES])})`,
      next: sql<string | null>`${next}`,
    })
    .from(profiles)
    .innerJoin(user, eq(user.id, profiles.userId))
    .leftJoin(homes, eq(homes.customerId, profiles.userId))
    .where(where)
    .orderBy(asc(profiles.firstName), asc(profiles.lastName), asc(profiles.userId))
    .limit(CUSTOMERS_PAGE_SIZE)
    .offset((page - 1) * CUSTOMERS_PAGE_SIZE);

  return {
    customers: rows.map(({ next: nextAppointment, ...row }) => {
      const [date, start] = nextAppointment?.split(" ") ?? [null, null];
      return { ...row, nextAppointmentDate: date, nextAppointmentStart: start };
    }),
    total,
    allCustomers: allCustomers ?? total,
    page,
    pageCount,
  };
}

/** A customer as the Create Appointment picker lists them. `sharedName`: another customer has
 * the same name, so the picker shows the e-mail too. */
export type CustomerChoice = { userId: string; name: string; email: string; sharedName: boolean };

/**
 * Customers for the Create Appointment picker, by name: the first CUSTOMER_PICKER_LIMIT, or the
 * first that match `search` (name, e-mail or phone). `more`: others exist past the limit.
 */
export async function findCustomerChoices(
  search: string | undefined,
  database: DbOrTx = db(),
): Promise<{ customers: CustomerChoice[]; more: boolean }> {
  // Exact name twins anywhere among the customers, found through profiles_customers_name_idx
  // (one index probe per listed customer), so a search that lists one of them still shows it.
  // Inside, "profiles" is the listed customer; "twin" is any other.
  const twin = sql<boolean>`exists (select 1 from ${profiles} as twin
      where twin.is_employee = false
        and twin.first_name = ${profiles.firstName}
        and twin.last_name = ${profiles.lastName}
        and twin.user_id <> ${profiles.userId})`;
  const rows = await database
    .select({
      userId: profiles.userId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: user.email,
      twin,
    })
    .from(profiles)
    .innerJoin(user, eq(user.id, profiles.userId))
    .where(and(eq(profiles.isEmployee, false), customerSearch(search)))
    .orderBy(asc(profiles.firstName), asc(profiles.lastName), asc(profiles.userId))
    .limit(CUSTOMER_PICKER_LIMIT + 1);
  const listed = rows.slice(0, CUSTOMER_PICKER_LIMIT).map((r) => ({
    userId: r.userId,
    name: personName(r.firstName, r.lastName) || r.email,
    email: r.email,
    twin: r.twin,
  }));
  // Names that differ only in case ("Ann lee", "Ann Lee") read alike in a list too.
  const seen = new Map<string, number>();
  for (const c of listed) seen.set(c.name.toLowerCase(), (seen.get(c.name.toLowerCase()) ?? 0) + 1);
  return {
    customers: listed.map(({ twin: isTwin, ...c }) => ({
      ...c,
      sharedName: isTwin || (seen.get(c.name.toLowerCase()) ?? 0) > 1,
    })),
    more: rows.length > CUSTOMER_PICKER_LIMIT,
  };
}

/** What the Create Appointment dialog offers once a customer is chosen. */
export type CustomerAppointmentOptions = NonNullable<
  Awaited<ReturnType<typeof customerAppointmentOptions>>
>;
export type CustomerHome = CustomerAppointmentOptions["homes"][number];
export type OpenRequestChoice = CustomerAppointmentOptions["openRequests"][number];

/** What the Create Appointment dialog offers once a customer is chosen. Null when the user is
 * not a customer (an employee, or nobody). */
export async function customerAppointmentOptions(customerId: string, database: DbOrTx = db()) {
  const [customer] = await database
    .select({ userId: profiles.userId, dedicatedHandymanId: profiles.dedicatedHandymanId })
    .from(profiles)
    .where(and(eq(profiles.userId, customerId), eq(profiles.isEmployee, false)))
    .limit(1);
  if (!customer) return null;
  const [customerHomes, openRequests] = await Promise.all([
    database
      .select({
        id: homes.id,
        address: homes.address,
        city: homes.city,
        state: homes.state,
        zipCode: homes.zipCode,
      })
      .from(homes)
      .where(eq(homes.customerId, customerId))
      .orderBy(asc(homes.createdAt)),
    openRequestsOf(customerId, database),
  ]);
  // 'Create Appointment' assigns her dedicated handyman unless staff choose another (ADR 088).
  return { homes: customerHomes, openRequests, dedicatedHandymanId: customer.dedicatedHandymanId };
}
