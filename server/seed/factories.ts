import crypto from "node:crypto";
import { storedPhone } from "~/lib/phone";
import type { StaffRole } from "~/db/staff-role";
import { hashPassword } from "better-auth/crypto";
import type { Database, DbOrTx } from "~/db/client.server";
import {
  account,
  appointments,
  appointmentTasks,
  homes,
  profiles,
  serviceRequests,
  user,
} from "~/db/schema";
import type { PlanId } from "~/content/plans";
import { reserveVisitMinutes } from "~/features/memberships/visit-minutes.server";
import { startMembership } from "~/features/memberships/start.server";

/*
 * Factories shared by the tests and the demo seed: each writes real rows the way the product
 * would, so a seeded account signs in like any other.
 */

export type NewUser = {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  phone?: string | null;
  isEmployee?: boolean;
  /** An employee's role (ADR 047); office staff unless told. */
  staffRole?: StaffRole;
  emailVerified?: boolean;
  /** The mobile was verified with a texted code: it signs in (ADR 086). */
  mobileVerified?: boolean;
  /**
   * `password`'s hash, already under way: hashing takes about 90 ms of CPU a password, on
   * Node's thread pool, so a caller writing several users starts them all at once.
   */
  passwordHash?: Promise<string>;
};

export async function createUser(db: DbOrTx, input: NewUser) {
  const id = crypto.randomUUID();
  const email = input.email.toLowerCase();
  await db.insert(user).values({
    id,
    name: `${input.firstName} ${input.lastName}`.trim(),
    email,
    emailVerified: input.emailVerified ?? true,
  });
  await db.insert(account).values({
    id: crypto.randomUUID(),
    accountId: id,
    providerId: "credential",
    userId: id,
    password: await (input.passwordHash ?? hashPassword(input.password)),
  });
  await db.insert(profiles).values({
    userId: id,
    firstName: input.firstName,
    lastName: input.lastName,
    mobilePhone: storedPhone(input.phone),
    mobileVerifiedAt: input.mobileVerified && input.phone ? new Date() : null,
    isEmployee: input.isEmployee ?? false,
    staffRole: input.staffRole ?? "office",
  });
  return { ...input, id, email };
}

export type NewHome = {
  address?: string;
  city?: string;
  state?: string;
  zipCode?: string;
  propertyNotes?: string | null;
};

export async function createHome(db: DbOrTx, customerId: string, input: NewHome = {}) {
  const [row] = await db
    .insert(homes)
    .values({
      customerId,
      address: input.address ?? "123 Peachtree St NE",
      city: input.city ?? "Atlanta",
      state: input.state ?? "GA",
      zipCode: input.zipCode ?? "30303",
      propertyNotes: input.propertyNotes ?? null,
    })
    .returning();
  return row;
}

export type NewServiceRequest = {
  title: string;
  description?: string | null;
  priority?: "next" | "later";
  status?: "new" | "reviewed" | "scheduled" | "complete";
  position?: number;
  employeeNotes?: string | null;
  createdAt?: Date;
};

export async function createServiceRequest(
  db: DbOrTx,
  home: { id: string; customerId: string },
  input: NewServiceRequest,
) {
  const [row] = await db
    .insert(serviceRequests)
    .values({
      homeId: home.id,
      customerId: home.customerId,
      title: input.title,
      description: input.description ?? null,
      priority: input.priority ?? "later",
      status: input.status ?? "new",
      position: input.position ?? 0,
      employeeNotes: input.employeeNotes ?? null,
      ...(input.createdAt ? { createdAt: input.createdAt, updatedAt: input.createdAt } : {}),
    })
    .returning();
  return row;
}

export type NewAppointment = {
  scheduledDate: string;
  startTime: string;
  endTime: string;
  notes?: string | null;
  assignedEmployeeId?: string | null;
  createdBy?: string | null;
  /** A task's description, or a request of the member's it does (the request's title). */
  tasks: (string | { description: string; requestId: string })[];
};

export async function createAppointment(
  db: DbOrTx,
  home: { id: string; customerId: string },
  input: NewAppointment,
) {
  const [row] = await db
    .insert(appointments)
    .values({
      customerId: home.customerId,
      homeId: home.id,
      scheduledDate: input.scheduledDate,
      startTime: input.startTime,
      endTime: input.endTime,
      notes: input.notes ?? null,
      assignedEmployeeId: input.assignedEmployeeId ?? null,
      createdBy: input.createdBy ?? null,
      status: "booked",
    })
    .returning();
  if (input.tasks.length) {
    await db.insert(appointmentTasks).values(
      input.tasks.map((task) =>
        typeof task === "string"
          ? { appointmentId: row.id, taskDescription: task }
          : {
              appointmentId: row.id,
              taskDescription: task.description,
              serviceRequestId: task.requestId,
            },
      ),
    );
  }
  return row;
}

export type NewMembership = {
  plan?: PlanId;
  billing?: "monthly" | "annual";
  /** YYYY-MM-DD; the charges due since then are posted. */
  startDate: string;
  staffId?: string | null;
  /** The business day the membership is started on (default: the real one): charges up to it are posted. */
  today?: string;
  /**
   * Give her the handyman with the fewest members in her area, as a start by staff does (ADR
   * 088). Off by default: a test sets her handyman itself (or leaves her last visit's).
   */
  assignHandyman?: boolean;
};

/** A membership started the way staff start one (no welcome e-mail). */
export async function createMembership(db: DbOrTx, customerId: string, input: NewMembership) {
  return startMembership(
    {
      customerId,
      plan: input.plan ?? "complete",
      billing: input.billing ?? "monthly",
      startDate: input.startDate,
    },
    input.staffId ?? null,
    {
      database: db,
      notify: false,
      today: input.today,
      assignHandyman: input.assignHandyman ?? false,
    },
  );
}

/** A member's visit: the appointment and its minutes reserved, in one transaction. */
export async function createMemberVisit(
  db: DbOrTx,
  home: { id: string; customerId: string },
  input: NewAppointment & { asExtra?: boolean; today?: string },
) {
  return (db as Database).transaction(async (tx) => {
    const appointment = await createAppointment(tx, home, input);
    const reserved = await reserveVisitMinutes(tx, appointment.id, {
      actorId: input.createdBy ?? null,
      asExtra: input.asExtra,
      today: input.today,
    });
    return { appointment, reserved };
  });
}
