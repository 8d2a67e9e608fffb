import type { DbOrTx } from "~/db/client.server";
import {
  createHome,
  createMemberVisit,
  createMembership,
  createUser,
} from "../../server/seed/factories";

/*
 * Two handymen on one visit (issue 46, ADR 091, 099): the people of its integration tests.
 * Dana Whitfield and Sam Okafor, the member Ada Lovelace with a membership from December 1,
 * 2030, and Ada's visit with Dana on Tuesday, December 3, 2030, 9:00 to 10:45. `n` keeps each
 * test's e-mail addresses apart.
 */
export async function twoHandymenWorld(db: DbOrTx, n: number) {
  const dana = await createUser(db, {
    email: `dana${n}@example.com`,
    password: "x",
    firstName: "Dana",
    lastName: "Whitfield",
    isEmployee: true,
  });
  const sam = await createUser(db, {
    email: `sam${n}@example.com`,
    password: "x",
    firstName: "Sam",
    lastName: "Okafor",
    isEmployee: true,
  });
  const member = await createUser(db, {
    email: `ada${n}@example.com`,
    password: "x",
    firstName: "Ada",
    lastName: "Lovelace",
  });
  const home = await createHome(db, member.id);
  const membership = await createMembership(db, member.id, {
    startDate: "2030-12-01",
    today: "2030-12-01",
  });
  const { appointment } = await createMemberVisit(
    db,
    { id: home.id, customerId: member.id },
    {
      scheduledDate: "2030-12-03",
      startTime: "09:00",
      endTime: "10:45",
      assignedEmployeeId: dana.id,
      tasks: ["Hang the heavy mirror"],
      today: "2030-12-01",
    },
  );
  return { dana, sam, member, home, membership, appointment };
}
