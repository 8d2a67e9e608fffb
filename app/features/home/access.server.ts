import { and, eq, ne } from "drizzle-orm";
import { db } from "~/db/client.server";
import { appointments, homes } from "~/db/schema";
import { businessToday } from "~/lib/business-calendar";
import type { SessionUser } from "~/lib/session.server";
import type { HomeRights } from "./types";

/*
 * Who may see and change a home's record (ADR 087): the member whose home it is (the
 * appliances, not the plan), the office (everything), a handyman only the homes of that day's
 * visits (see the record, document appliances, mark plan tasks done). Ownership is part of
 * each query.
 */
export type HomeAccess = {
  homeId: string;
  customerId: string;
  actor: { id: string; name: string };
  rights: HomeRights;
};

export async function homeAccess(
  user: SessionUser,
  homeId: string,
  now = new Date(),
): Promise<HomeAccess | null> {
  const actor = { id: user.id, name: user.name || user.email };
  if (!user.isEmployee) {
    const [home] = await db()
      .select({ id: homes.id, customerId: homes.customerId })
      .from(homes)
      .where(and(eq(homes.id, homeId), eq(homes.customerId, user.id)));
    return home ? memberAccess(user, home) : null;
  }
  if (!user.isHandyman) {
    const [home] = await db()
      .select({ id: homes.id, customerId: homes.customerId })
      .from(homes)
      .where(eq(homes.id, homeId));
    if (!home) return null;
    return {
      homeId,
      customerId: home.customerId,
      actor,
      rights: { appliances: true, plan: true, markDone: true },
    };
  }
  const [visit] = await db()
    .select({ customerId: homes.customerId })
    .from(appointments)
    .innerJoin(homes, eq(homes.id, appointments.homeId))
    .where(
      and(
        eq(appointments.homeId, homeId),
        eq(appointments.assignedEmployeeId, user.id),
        eq(appointments.scheduledDate, businessToday(now)),
        ne(appointments.status, "canceled"),
      ),
    )
    .limit(1);
  if (!visit) return null;
  return {
    homeId,
    customerId: visit.customerId,
    actor,
    rights: { appliances: true, plan: false, markDone: true },
  };
}

/** A member's rights on her own home, `home` read with her id as its owner. */
export function memberAccess(
  user: SessionUser,
  home: { id: string; customerId: string },
): HomeAccess {
  return {
    homeId: home.id,
    customerId: home.customerId,
    actor: { id: user.id, name: user.name || user.email },
    rights: { appliances: true, plan: false, markDone: false },
  };
}

/** The member's own home (one per customer). */
export async function customerHomeId(customerId: string) {
  const [home] = await db()
    .select({ id: homes.id })
    .from(homes)
    .where(eq(homes.customerId, customerId));
  return home?.id ?? null;
}
