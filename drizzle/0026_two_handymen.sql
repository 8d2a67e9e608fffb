-- Two handymen on one visit, for the jobs one person cannot do alone (issue 46; ADR 091).
-- The visit's second handyman, never the first one again.
ALTER TABLE "appointments" ADD COLUMN "second_handyman_id" text REFERENCES "user"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_second_handyman_differs" CHECK ("second_handyman_id" IS NULL OR "second_handyman_id" <> "assigned_employee_id");
--> statement-breakpoint
CREATE INDEX "appointments_second_handyman_date_idx" ON "appointments" ("second_handyman_id", "scheduled_date", "start_time") WHERE "second_handyman_id" IS NOT NULL;
--> statement-breakpoint
-- The exclusion constraint appointments_no_double_booking holds each visit's first handyman;
-- a handyman who comes second is held by this trigger: the visits' handymen take turns on an
-- advisory lock each (in one order), then no other busy visit may have either of them at an
-- overlapping time, first or second. Its refusal is the constraint's SQLSTATE (23P01), so
-- every booking path hears the same words.
CREATE FUNCTION "appointments_second_handyman_free"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  person text;
BEGIN
  IF NEW."status" NOT IN ('booked', 'on_the_way', 'in_progress', 'completed') THEN
    RETURN NEW;
  END IF;
  FOR person IN
    SELECT p FROM unnest(ARRAY[NEW."assigned_employee_id", NEW."second_handyman_id"]) AS p
    WHERE p IS NOT NULL ORDER BY p
  LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended('visit-handyman:' || person, 0));
  END LOOP;
  IF EXISTS (
    SELECT 1 FROM "appointments" a
    WHERE a."id" <> NEW."id"
      AND a."status" IN ('booked', 'on_the_way', 'in_progress', 'completed')
      AND a."scheduled_date" = NEW."scheduled_date"
      AND a."start_time" < NEW."end_time" AND NEW."start_time" < a."end_time"
      AND (
        a."second_handyman_id" IN (NEW."assigned_employee_id", NEW."second_handyman_id")
        OR a."assigned_employee_id" = NEW."second_handyman_id"
      )
  ) THEN
    RAISE EXCEPTION 'That handyman already has a visit at that time.'
      USING ERRCODE = '23P01', CONSTRAINT = 'appointments_no_double_booking_second_handyman';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "appointments_second_handyman_free"
BEFORE INSERT OR UPDATE OF "assigned_employee_id", "second_handyman_id", "scheduled_date", "start_time", "end_time", "status"
ON "appointments" FOR EACH ROW EXECUTE FUNCTION "appointments_second_handyman_free"();
--> statement-breakpoint
-- The fee for the second handyman, a charge of its own in the money ledger: once per visit (a
-- reversal is a correction, and charging it again after one is a correction too).
-- A value added to an enum cannot be used in the transaction that adds it (refund_paid of
-- migration 0012 neither, on a new database), nor cast to text in an index's predicate (not
-- immutable): the index names the kinds that were there before, and leaves refund_paid out by
-- its payment method (every refund_paid row has one, no second_handyman row has), so it holds
-- the new kind's charges only. The CHECK below compares the kind as text.
ALTER TYPE "public"."membership_money_kind" ADD VALUE 'second_handyman';
--> statement-breakpoint
CREATE UNIQUE INDEX "membership_money_ledger_one_second_handyman_per_visit" ON "membership_money_ledger" ("appointment_id") WHERE "kind" NOT IN ('membership_charge', 'extra_visit', 'part', 'shopping_fee', 'payment', 'refund', 'correction') AND "payment_method" IS NULL;
--> statement-breakpoint
ALTER TABLE "membership_money_ledger" DROP CONSTRAINT "membership_money_ledger_sign";
--> statement-breakpoint
ALTER TABLE "membership_money_ledger" ADD CONSTRAINT "membership_money_ledger_sign" CHECK (("membership_money_ledger"."kind"::text in ('membership_charge', 'extra_visit', 'part', 'shopping_fee', 'refund_paid', 'second_handyman') and "membership_money_ledger"."amount_cents" > 0) or ("membership_money_ledger"."kind" in ('payment', 'refund') and "membership_money_ledger"."amount_cents" < 0) or ("membership_money_ledger"."kind" = 'correction' and "membership_money_ledger"."amount_cents" <> 0));
