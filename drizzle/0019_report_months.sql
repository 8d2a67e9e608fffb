-- The owner's reports count every entry in the month its statement shows (issue 39, item 5;
-- ADR 082, amending 063 and 070): a charge, a payment, hours bought in the month of their billing
-- period, a visit's reservation, release, return, correction, extra charge, part and fee in the
-- month of the visit, a cancel's credit on the day of the cancel, anything else on the business
-- day it was written (America/New_York). The statement (app/features/memberships/
-- statement.server.ts) dates entries this way; the summaries of 0015 grouped them by the posting
-- instant, so a back-dated or late-posted entry landed in the month it was typed in.
--
-- The summaries are now by business DAY (a month cut by a custom range is read from them too),
-- kept as before: a statement-level AFTER INSERT trigger on each ledger adds the statement's sums
-- to report_*_day_deltas, a plain insert that waits for no one; the page moves the deltas into
-- report_*_days and reads both. A day can change after the entry: a visit moved to another day
-- (appointments.scheduled_date), a cancel's day written after its credit (memberships.canceled_on);
-- row triggers on those two columns move the entries' sums from the old day to the new one.
DROP TRIGGER "membership_money_ledger_report_months" ON "membership_money_ledger";--> statement-breakpoint
DROP TRIGGER "membership_minutes_ledger_report_months" ON "membership_minutes_ledger";--> statement-breakpoint
DROP TRIGGER "membership_money_ledger_report_months_truncate" ON "membership_money_ledger";--> statement-breakpoint
DROP TRIGGER "membership_minutes_ledger_report_months_truncate" ON "membership_minutes_ledger";--> statement-breakpoint
DROP FUNCTION "report_money_months_on_insert"();--> statement-breakpoint
DROP FUNCTION "report_hours_months_on_insert"();--> statement-breakpoint
DROP FUNCTION "report_money_months_on_truncate"();--> statement-breakpoint
DROP FUNCTION "report_hours_months_on_truncate"();--> statement-breakpoint
DROP TABLE "report_money_months";--> statement-breakpoint
DROP TABLE "report_money_deltas";--> statement-breakpoint
DROP TABLE "report_hours_months";--> statement-breakpoint
DROP TABLE "report_hours_deltas";--> statement-breakpoint
CREATE TABLE "report_money_days" (
	"day" date NOT NULL,
	"kind" "membership_money_kind" NOT NULL,
	"cents" bigint NOT NULL,
	"entries" integer NOT NULL,
	CONSTRAINT "report_money_days_day_kind_pk" PRIMARY KEY("day","kind")
);
--> statement-breakpoint
CREATE TABLE "report_money_day_deltas" (
	"day" date NOT NULL,
	"kind" "membership_money_kind" NOT NULL,
	"cents" bigint NOT NULL,
	"entries" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_hours_days" (
	"day" date NOT NULL,
	"kind" "membership_minutes_kind" NOT NULL,
	"minutes" bigint NOT NULL,
	"entries" integer NOT NULL,
	CONSTRAINT "report_hours_days_day_kind_pk" PRIMARY KEY("day","kind")
);
--> statement-breakpoint
CREATE TABLE "report_hours_day_deltas" (
	"day" date NOT NULL,
	"kind" "membership_minutes_kind" NOT NULL,
	"minutes" bigint NOT NULL,
	"entries" integer NOT NULL
);
--> statement-breakpoint
-- A visit's entries, for the move of their sums when the visit moves to another day.
CREATE INDEX "membership_money_ledger_appointment_idx" ON "membership_money_ledger" USING btree ("appointment_id") WHERE "membership_money_ledger"."appointment_id" is not null;--> statement-breakpoint
CREATE INDEX "membership_minutes_ledger_appointment_idx" ON "membership_minutes_ledger" USING btree ("appointment_id") WHERE "membership_minutes_ledger"."appointment_id" is not null;--> statement-breakpoint
-- The existing entries, each on its statement day: the k-th accrual of a membership (by seq)
-- belongs to the k-th charge's period, as the statement pairs them.
INSERT INTO "report_money_days" ("day", "kind", "cents", "entries")
SELECT coalesce(l."period_start", a."scheduled_date",
    CASE WHEN l."kind" = 'refund' THEN m."canceled_on" END,
    (l."created_at" AT TIME ZONE 'America/New_York')::date), l."kind", sum(l."amount_cents"), count(*)
FROM "membership_money_ledger" l
LEFT JOIN "appointments" a ON a."id" = l."appointment_id"
LEFT JOIN "memberships" m ON m."id" = l."membership_id"
GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "report_hours_days" ("day", "kind", "minutes", "entries")
SELECT coalesce(c."period_start", a."scheduled_date",
    CASE WHEN l."kind" = 'refund' THEN m."canceled_on" END,
    (l."created_at" AT TIME ZONE 'America/New_York')::date), l."kind", sum(l."minutes"), count(*)
FROM "membership_minutes_ledger" l
LEFT JOIN (
  SELECT "id", "membership_id", row_number() OVER (PARTITION BY "membership_id" ORDER BY "seq") AS k
  FROM "membership_minutes_ledger" WHERE "kind" = 'accrual'
) r ON r."id" = l."id"
LEFT JOIN (
  SELECT "membership_id", "period_start", row_number() OVER (PARTITION BY "membership_id" ORDER BY "seq") AS k
  FROM "membership_money_ledger" WHERE "kind" = 'membership_charge'
) c ON c."membership_id" = r."membership_id" AND c.k = r.k
LEFT JOIN "appointments" a ON a."id" = l."appointment_id"
LEFT JOIN "memberships" m ON m."id" = l."membership_id"
GROUP BY 1, 2;--> statement-breakpoint
CREATE FUNCTION "report_money_days_on_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "report_money_day_deltas" ("day", "kind", "cents", "entries")
  SELECT coalesce(n."period_start", a."scheduled_date",
      CASE WHEN n."kind" = 'refund' THEN m."canceled_on" END,
      (n."created_at" AT TIME ZONE 'America/New_York')::date), n."kind", sum(n."amount_cents"), count(*)
  FROM new_rows n
  LEFT JOIN "appointments" a ON a."id" = n."appointment_id"
  LEFT JOIN "memberships" m ON m."id" = n."membership_id" AND n."kind" = 'refund'
  GROUP BY 1, 2;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "report_hours_days_on_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "report_hours_day_deltas" ("day", "kind", "minutes", "entries")
  SELECT coalesce(
      CASE WHEN n."kind" = 'accrual' THEN (
        SELECT c."period_start" FROM "membership_money_ledger" c
        WHERE c."membership_id" = n."membership_id" AND c."kind" = 'membership_charge'
        ORDER BY c."seq" LIMIT 1
        OFFSET (
          SELECT count(*) FROM "membership_minutes_ledger" h
          WHERE h."membership_id" = n."membership_id" AND h."kind" = 'accrual' AND h."seq" < n."seq"
        )
      ) END,
      a."scheduled_date",
      CASE WHEN n."kind" = 'refund' THEN m."canceled_on" END,
      (n."created_at" AT TIME ZONE 'America/New_York')::date), n."kind", sum(n."minutes"), count(*)
  FROM new_rows n
  LEFT JOIN "appointments" a ON a."id" = n."appointment_id"
  LEFT JOIN "memberships" m ON m."id" = n."membership_id" AND n."kind" = 'refund'
  GROUP BY 1, 2;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "membership_money_ledger_report_days" AFTER INSERT ON "membership_money_ledger"
REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "report_money_days_on_insert"();--> statement-breakpoint
CREATE TRIGGER "membership_minutes_ledger_report_days" AFTER INSERT ON "membership_minutes_ledger"
REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "report_hours_days_on_insert"();--> statement-breakpoint
-- A visit moved to another day: its entries dated by the visit (those of the money ledger
-- without a billing period; those of the hours ledger but accruals) move with it.
CREATE FUNCTION "report_days_on_visit_moved"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "report_money_day_deltas" ("day", "kind", "cents", "entries")
  SELECT d."day", l."kind", d.sign * sum(l."amount_cents"), d.sign * count(*)
  FROM "membership_money_ledger" l,
    (VALUES (OLD."scheduled_date", -1), (NEW."scheduled_date", 1)) d("day", sign)
  WHERE l."appointment_id" = NEW."id" AND l."period_start" IS NULL
  GROUP BY d."day", d.sign, l."kind";
  INSERT INTO "report_hours_day_deltas" ("day", "kind", "minutes", "entries")
  SELECT d."day", l."kind", d.sign * sum(l."minutes"), d.sign * count(*)
  FROM "membership_minutes_ledger" l,
    (VALUES (OLD."scheduled_date", -1), (NEW."scheduled_date", 1)) d("day", sign)
  WHERE l."appointment_id" = NEW."id" AND l."kind" <> 'accrual'
  GROUP BY d."day", d.sign, l."kind";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "appointments_report_days" AFTER UPDATE OF "scheduled_date" ON "appointments"
FOR EACH ROW WHEN (OLD."scheduled_date" IS DISTINCT FROM NEW."scheduled_date")
EXECUTE FUNCTION "report_days_on_visit_moved"();--> statement-breakpoint
-- A cancel's day written (or changed) after its credit: the membership's refunds that take
-- their day from it (no billing period, no visit) move from the day they had to the new one.
CREATE FUNCTION "report_days_on_cancel_day"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "report_money_day_deltas" ("day", "kind", "cents", "entries")
  SELECT coalesce(CASE WHEN d.sign < 0 THEN OLD."canceled_on" ELSE NEW."canceled_on" END,
      (l."created_at" AT TIME ZONE 'America/New_York')::date), l."kind",
    d.sign * sum(l."amount_cents"), d.sign * count(*)
  FROM "membership_money_ledger" l
  CROSS JOIN (VALUES (-1), (1)) d(sign)
  LEFT JOIN "appointments" a ON a."id" = l."appointment_id"
  WHERE l."membership_id" = NEW."id" AND l."kind" = 'refund' AND l."period_start" IS NULL
    AND a."scheduled_date" IS NULL
  GROUP BY 1, 2, d.sign;
  INSERT INTO "report_hours_day_deltas" ("day", "kind", "minutes", "entries")
  SELECT coalesce(CASE WHEN d.sign < 0 THEN OLD."canceled_on" ELSE NEW."canceled_on" END,
      (l."created_at" AT TIME ZONE 'America/New_York')::date), l."kind",
    d.sign * sum(l."minutes"), d.sign * count(*)
  FROM "membership_minutes_ledger" l
  CROSS JOIN (VALUES (-1), (1)) d(sign)
  LEFT JOIN "appointments" a ON a."id" = l."appointment_id"
  WHERE l."membership_id" = NEW."id" AND l."kind" = 'refund' AND a."scheduled_date" IS NULL
  GROUP BY 1, 2, d.sign;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "memberships_report_days" AFTER UPDATE OF "canceled_on" ON "memberships"
FOR EACH ROW WHEN (OLD."canceled_on" IS DISTINCT FROM NEW."canceled_on")
EXECUTE FUNCTION "report_days_on_cancel_day"();--> statement-breakpoint
-- Emptying a ledger (TRUNCATE, directly or by CASCADE from the users: test resets) empties its
-- summary.
CREATE FUNCTION "report_money_days_on_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "report_money_days";
  DELETE FROM "report_money_day_deltas";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "report_hours_days_on_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "report_hours_days";
  DELETE FROM "report_hours_day_deltas";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "membership_money_ledger_report_days_truncate" AFTER TRUNCATE ON "membership_money_ledger"
FOR EACH STATEMENT EXECUTE FUNCTION "report_money_days_on_truncate"();--> statement-breakpoint
CREATE TRIGGER "membership_minutes_ledger_report_days_truncate" AFTER TRUNCATE ON "membership_minutes_ledger"
FOR EACH STATEMENT EXECUTE FUNCTION "report_hours_days_on_truncate"();
