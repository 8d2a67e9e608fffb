CREATE TABLE "report_hours_deltas" (
	"month" date NOT NULL,
	"kind" "membership_minutes_kind" NOT NULL,
	"minutes" bigint NOT NULL,
	"entries" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_hours_months" (
	"month" date NOT NULL,
	"kind" "membership_minutes_kind" NOT NULL,
	"minutes" bigint NOT NULL,
	"entries" integer NOT NULL,
	CONSTRAINT "report_hours_months_month_kind_pk" PRIMARY KEY("month","kind")
);
--> statement-breakpoint
CREATE TABLE "report_money_deltas" (
	"month" date NOT NULL,
	"kind" "membership_money_kind" NOT NULL,
	"cents" bigint NOT NULL,
	"entries" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_money_months" (
	"month" date NOT NULL,
	"kind" "membership_money_kind" NOT NULL,
	"cents" bigint NOT NULL,
	"entries" integer NOT NULL,
	CONSTRAINT "report_money_months_month_kind_pk" PRIMARY KEY("month","kind")
);
--> statement-breakpoint
CREATE INDEX "intro_calls_created_idx" ON "intro_calls" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "membership_minutes_ledger_created_idx" ON "membership_minutes_ledger" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "membership_minutes_ledger_correction_idx" ON "membership_minutes_ledger" USING btree ("appointment_id") WHERE "membership_minutes_ledger"."kind" = 'correction';--> statement-breakpoint
CREATE INDEX "membership_money_ledger_created_idx" ON "membership_money_ledger" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "membership_visits_completed_idx" ON "membership_visits" USING btree ("completed_at") WHERE "membership_visits"."completed_at" is not null;--> statement-breakpoint
-- The owner's reports (ADR 070): both ledgers summed by business month (America/New_York, the
-- business time zone of app/lib/business-calendar.ts) and kind. The ledgers are append-only
-- (0003's triggers refuse UPDATE and DELETE), so a statement-level AFTER INSERT trigger is the
-- only upkeep. It adds the statement's sums as new rows of report_*_deltas, a plain insert that
-- takes no lock another transaction waits for (an upsert of the month's row would make every
-- ledger write wait on, and deadlock with, others writing the same month); the reports move the
-- deltas into report_*_months before reading and read both. Existing entries are summed here.
INSERT INTO "report_money_months" ("month", "kind", "cents", "entries")
SELECT date_trunc('month', "created_at" AT TIME ZONE 'America/New_York')::date, "kind", sum("amount_cents"), count(*)
FROM "membership_money_ledger" GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "report_hours_months" ("month", "kind", "minutes", "entries")
SELECT date_trunc('month', "created_at" AT TIME ZONE 'America/New_York')::date, "kind", sum("minutes"), count(*)
FROM "membership_minutes_ledger" GROUP BY 1, 2;--> statement-breakpoint
CREATE FUNCTION "report_money_months_on_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "report_money_deltas" ("month", "kind", "cents", "entries")
  SELECT date_trunc('month', "created_at" AT TIME ZONE 'America/New_York')::date, "kind", sum("amount_cents"), count(*)
  FROM new_rows GROUP BY 1, 2;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "report_hours_months_on_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "report_hours_deltas" ("month", "kind", "minutes", "entries")
  SELECT date_trunc('month', "created_at" AT TIME ZONE 'America/New_York')::date, "kind", sum("minutes"), count(*)
  FROM new_rows GROUP BY 1, 2;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "membership_money_ledger_report_months" AFTER INSERT ON "membership_money_ledger"
REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "report_money_months_on_insert"();--> statement-breakpoint
CREATE TRIGGER "membership_minutes_ledger_report_months" AFTER INSERT ON "membership_minutes_ledger"
REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "report_hours_months_on_insert"();--> statement-breakpoint
-- Emptying a ledger (TRUNCATE, directly or by CASCADE from the users: test resets) empties its
-- summary.
CREATE FUNCTION "report_money_months_on_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "report_money_months";
  DELETE FROM "report_money_deltas";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "report_hours_months_on_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "report_hours_months";
  DELETE FROM "report_hours_deltas";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "membership_money_ledger_report_months_truncate" AFTER TRUNCATE ON "membership_money_ledger"
FOR EACH STATEMENT EXECUTE FUNCTION "report_money_months_on_truncate"();--> statement-breakpoint
CREATE TRIGGER "membership_minutes_ledger_report_months_truncate" AFTER TRUNCATE ON "membership_minutes_ledger"
FOR EACH STATEMENT EXECUTE FUNCTION "report_hours_months_on_truncate"();
