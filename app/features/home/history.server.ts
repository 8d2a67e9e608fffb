import type { DbOrTx } from "~/db/client.server";
import { homeHistory } from "~/db/schema";
import type { HomeAccess } from "./access.server";

/** One line of the home's history: who, when (now), what. */
export async function recordHistory(
  tx: DbOrTx,
  access: HomeAccess,
  summary: string,
  details?: Record<string, unknown>,
) {
  await tx.insert(homeHistory).values({
    homeId: access.homeId,
    actorId: access.actor.id,
    actorName: access.actor.name,
    summary,
    details: details ?? null,
  });
}
