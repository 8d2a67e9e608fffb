CREATE SEQUENCE "public"."membership_ledger_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "membership_minutes_ledger" ADD COLUMN "seq" bigint;--> statement-breakpoint
ALTER TABLE "membership_money_ledger" ADD COLUMN "seq" bigint;--> statement-breakpoint
-- Edited by hand (ADR 041): the rows written before this migration are numbered in one order
-- across both ledgers that keeps each ledger's own (by id: the order its balances were computed
-- under the membership's lock) and interleaves the two by the latest time each has reached.
-- The ledgers are append-only (0003's triggers), which this one numbering steps around.
CREATE TEMPORARY TABLE "membership_ledger_order" ON COMMIT DROP AS
SELECT "ledger", "id", row_number() OVER (ORDER BY "seen", "ledger", "id") AS "n"
FROM (
  SELECT 'hours' AS "ledger", "id", max("created_at") OVER (ORDER BY "id") AS "seen"
  FROM "membership_minutes_ledger"
  UNION ALL
  SELECT 'money' AS "ledger", "id", max("created_at") OVER (ORDER BY "id") AS "seen"
  FROM "membership_money_ledger"
) AS "rows";--> statement-breakpoint
ALTER TABLE "membership_minutes_ledger" DISABLE TRIGGER "membership_minutes_ledger_append_only";--> statement-breakpoint
ALTER TABLE "membership_money_ledger" DISABLE TRIGGER "membership_money_ledger_append_only";--> statement-breakpoint
UPDATE "membership_minutes_ledger" AS "l" SET "seq" = "o"."n"
FROM "membership_ledger_order" AS "o" WHERE "o"."ledger" = 'hours' AND "o"."id" = "l"."id";--> statement-breakpoint
UPDATE "membership_money_ledger" AS "l" SET "seq" = "o"."n"
FROM "membership_ledger_order" AS "o" WHERE "o"."ledger" = 'money' AND "o"."id" = "l"."id";--> statement-breakpoint
ALTER TABLE "membership_minutes_ledger" ENABLE TRIGGER "membership_minutes_ledger_append_only";--> statement-breakpoint
ALTER TABLE "membership_money_ledger" ENABLE TRIGGER "membership_money_ledger_append_only";--> statement-breakpoint
SELECT setval('membership_ledger_seq', coalesce((SELECT max("n") FROM "membership_ledger_order"), 0) + 1, false);--> statement-breakpoint
ALTER TABLE "membership_minutes_ledger" ALTER COLUMN "seq" SET DEFAULT nextval('membership_ledger_seq');--> statement-breakpoint
ALTER TABLE "membership_minutes_ledger" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "membership_money_ledger" ALTER COLUMN "seq" SET DEFAULT nextval('membership_ledger_seq');--> statement-breakpoint
ALTER TABLE "membership_money_ledger" ALTER COLUMN "seq" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "membership_minutes_ledger_membership_seq_idx" ON "membership_minutes_ledger" USING btree ("membership_id","seq");--> statement-breakpoint
CREATE INDEX "membership_money_ledger_membership_seq_idx" ON "membership_money_ledger" USING btree ("membership_id","seq");
