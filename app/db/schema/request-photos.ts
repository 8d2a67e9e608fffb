import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { serviceRequests } from "./service-requests";
import { appointments } from "./visits";

/* ---------- A request's photos, the member's and the handyman's before and after ---------- */

export const requestPhotos = pgTable(
  "request_photos",
  {
    id: uuid().primaryKey().defaultRandom(),
    requestId: uuid()
      .notNull()
      .references(() => serviceRequests.id, { onDelete: "cascade" }),
    filePath: text().notNull(),
    thumbnailPath: text(),
    fileName: text().notNull(),
    fileSize: integer().notNull(),
    contentType: text().notNull(),
    width: integer(),
    height: integer(),
    /** An after photo: the visit whose handyman took it ('Add photo' on 'Today'); null: the member's. */
    afterVisitId: uuid().references(() => appointments.id, { onDelete: "set null" }),
    /** A before photo: the visit whose handyman took it before the work ('Before' in 'Add photo'). */
    beforeVisitId: uuid().references(() => appointments.id, { onDelete: "set null" }),
    uploadedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("request_photos_request_idx").on(t.requestId, t.uploadedAt)],
);

export type RequestPhoto = typeof requestPhotos.$inferSelect;
