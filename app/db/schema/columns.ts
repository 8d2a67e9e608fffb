import { timestamp } from "drizzle-orm/pg-core";

/** Columns every table that is edited keeps: when the row was made and last changed. */
export const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};
