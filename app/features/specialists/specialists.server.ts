import { asc, eq } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { specialists, type Specialist } from "~/db/schema";
import { TRADE_LABELS } from "~/db/specialist-trade";
import { claimActionKey } from "~/lib/action-keys.server";
import type { SpecialistInput } from "./schema";

/*
 * The partner network (issue 41, item 5): the specialists office staff keep, by trade, with
 * their contact, license number, notes and any referral fee (shown to the member).
 */

export type SpecialistRow = Omit<Specialist, "createdAt" | "updatedAt" | "createdBy"> & {
  tradeLabel: string;
};

function row(s: Specialist): SpecialistRow {
  const { createdAt: _c, updatedAt: _u, createdBy: _b, ...rest } = s;
  return { ...rest, tradeLabel: TRADE_LABELS[s.trade] };
}

/** Every specialist on the list (the ones taken off it too with `all`), by trade and company. */
export async function listSpecialists(
  options: { all?: boolean; database?: DbOrTx } = {},
): Promise<SpecialistRow[]> {
  const rows = await (options.database ?? db())
    .select()
    .from(specialists)
    .where(options.all ? undefined : eq(specialists.active, true))
    .orderBy(asc(specialists.trade), asc(specialists.company));
  return rows.map(row);
}

/** 'Add specialist', once per form (its key, ADR 048): null when already applied. */
export async function addSpecialist(
  input: SpecialistInput,
  staffId: string,
  key: string,
  database: DbOrTx = db(),
) {
  return database.transaction(async (tx) => {
    if (!(await claimActionKey(tx, { key, actorId: staffId, action: "add-specialist" })))
      return null;
    const [created] = await tx
      .insert(specialists)
      .values({ ...fields(input), createdBy: staffId })
      .returning();
    return row(created);
  });
}

/** 'Save' on a specialist: the same form sent twice writes the same values. */
export async function updateSpecialist(
  id: string,
  input: SpecialistInput & { active?: boolean },
  database: DbOrTx = db(),
) {
  const [updated] = await database
    .update(specialists)
    .set({ ...fields(input), ...(input.active === undefined ? {} : { active: input.active }) })
    .where(eq(specialists.id, id))
    .returning();
  return updated ? row(updated) : null;
}

function fields(input: SpecialistInput) {
  return {
    trade: input.trade,
    company: input.company,
    contactName: input.contactName,
    phone: input.phone,
    email: input.email,
    licenseNumber: input.licenseNumber,
    notes: input.notes,
    referralFeeCents: input.referralFee,
  };
}
