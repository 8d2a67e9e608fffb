-- Written by hand (issue 40, ADR 084): tasks are never lost, a walk-thru belongs to its person.
--
-- 1. A handyman's photo of a task is 'Before' or 'After' the work: before_visit_id joins
--    after_visit_id (a member's own photos have neither).
ALTER TABLE "request_photos" ADD COLUMN "before_visit_id" uuid;--> statement-breakpoint
ALTER TABLE "request_photos" ADD CONSTRAINT "request_photos_before_visit_id_appointments_id_fk" FOREIGN KEY ("before_visit_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- 2. Every task of a member's visit is a request of the member's: the tasks staff typed (no
--    request) become requests, in the state their visit left them (done: complete; an open
--    visit: scheduled; not done or a no-show: back on the list). Canceled visits' typed tasks
--    stay as they were: nobody planned them since.
CREATE TEMPORARY TABLE "typed_tasks" AS
	SELECT t."id" AS "task_id", gen_random_uuid() AS "request_id", a."customer_id", a."home_id",
		left(t."task_description", 200) AS "title",
		CASE
			WHEN t."outcome" = 'done' THEN 'complete'
			WHEN a."status" IN ('booked', 'on_the_way', 'in_progress') THEN 'scheduled'
			ELSE 'reviewed'
		END AS "status"
	FROM "appointment_tasks" t
	JOIN "appointments" a ON a."id" = t."appointment_id"
	WHERE t."service_request_id" IS NULL AND a."kind" = 'visit' AND a."customer_id" IS NOT NULL
		AND a."home_id" IS NOT NULL AND a."status" <> 'canceled';--> statement-breakpoint
INSERT INTO "service_requests" ("id", "home_id", "customer_id", "title", "status", "priority")
	SELECT "request_id", "home_id", "customer_id", "title", "status"::"request_status", 'next'
	FROM "typed_tasks";--> statement-breakpoint
UPDATE "appointment_tasks" SET "service_request_id" = tt."request_id"
	FROM "typed_tasks" tt WHERE "appointment_tasks"."id" = tt."task_id";--> statement-breakpoint
DROP TABLE "typed_tasks";--> statement-breakpoint
-- 3. A walk-thru booked for a lead is the person's once the lead has an account (linked by
--    e-mail when she confirms it, or already): the open walk-thrus of a lead follow its
--    customer, and one booked for a lead with a customer is hers from the start.
UPDATE "appointments" SET "customer_id" = p."customer_id"
	FROM "prospects" p
	WHERE p."id" = "appointments"."lead_id" AND p."customer_id" IS NOT NULL
		AND "appointments"."customer_id" IS NULL AND "appointments"."kind" = 'walk_thru'
		AND "appointments"."status" IN ('booked', 'on_the_way', 'in_progress');--> statement-breakpoint
CREATE FUNCTION "prospects_walk_thrus_follow_customer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."customer_id" IS NOT NULL THEN
		UPDATE "appointments" SET "customer_id" = NEW."customer_id"
			WHERE "lead_id" = NEW."id" AND "customer_id" IS NULL AND "kind" = 'walk_thru'
				AND "status" IN ('booked', 'on_the_way', 'in_progress');
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "prospects_walk_thrus_follow_customer" AFTER INSERT OR UPDATE OF "customer_id" ON "prospects"
	FOR EACH ROW EXECUTE FUNCTION "prospects_walk_thrus_follow_customer"();--> statement-breakpoint
CREATE FUNCTION "appointments_walk_thru_of_customer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."kind" = 'walk_thru' AND NEW."customer_id" IS NULL AND NEW."lead_id" IS NOT NULL THEN
		SELECT p."customer_id" INTO NEW."customer_id" FROM "prospects" p WHERE p."id" = NEW."lead_id";
	END IF;
	RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "appointments_walk_thru_of_customer" BEFORE INSERT ON "appointments"
	FOR EACH ROW EXECUTE FUNCTION "appointments_walk_thru_of_customer"();
