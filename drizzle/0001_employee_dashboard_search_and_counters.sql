-- Trigram indexes serve the employee dashboard's ILIKE '%term%' search (title, customer name).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "service_request_status_counts" (
	"status" "request_status" PRIMARY KEY NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "profiles_customers_name_idx" ON "profiles" USING btree ("first_name","last_name","user_id") WHERE "profiles"."is_employee" = false;--> statement-breakpoint
CREATE INDEX "profiles_full_name_trgm_idx" ON "profiles" USING gin ((coalesce(first_name, '') || ' ' || coalesce(last_name, '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_requests_title_trgm_idx" ON "service_requests" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
-- Exact per-status request counts for the dashboard counters, maintained by statement-level
-- triggers. Rows are touched in status order, so concurrent transactions never deadlock on them.
INSERT INTO "service_request_status_counts" ("status", "count")
SELECT s.status, count(r.id)
FROM unnest(enum_range(NULL::"request_status")) AS s(status)
LEFT JOIN "service_requests" r ON r.status = s.status
GROUP BY s.status;--> statement-breakpoint
CREATE FUNCTION "service_request_status_counts_apply"(deltas jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  item record;
BEGIN
  FOR item IN
    SELECT key::"request_status" AS status, value::bigint AS delta
    FROM jsonb_each_text(deltas)
    WHERE value::bigint <> 0
    ORDER BY key::"request_status"
  LOOP
    INSERT INTO "service_request_status_counts" AS c ("status", "count")
    VALUES (item.status, item.delta)
    ON CONFLICT ("status") DO UPDATE SET "count" = c."count" + excluded."count";
  END LOOP;
END
$$;--> statement-breakpoint
CREATE FUNCTION "service_request_status_counts_on_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  deltas jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT coalesce(jsonb_object_agg(status, n), '{}') INTO deltas
    FROM (SELECT status, count(*) AS n FROM new_rows GROUP BY status) d;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT coalesce(jsonb_object_agg(status, -n), '{}') INTO deltas
    FROM (SELECT status, count(*) AS n FROM old_rows GROUP BY status) d;
  ELSE
    SELECT coalesce(jsonb_object_agg(status, n), '{}') INTO deltas
    FROM (
      SELECT status, sum(delta) AS n
      FROM (
        SELECT status, 1 AS delta FROM new_rows
        UNION ALL
        SELECT status, -1 AS delta FROM old_rows
      ) changes
      GROUP BY status
    ) d;
  END IF;
  PERFORM "service_request_status_counts_apply"(deltas);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "service_request_status_counts_on_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "service_request_status_counts" SET "count" = 0;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "service_requests_count_insert" AFTER INSERT ON "service_requests"
REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "service_request_status_counts_on_change"();--> statement-breakpoint
CREATE TRIGGER "service_requests_count_update" AFTER UPDATE ON "service_requests"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION "service_request_status_counts_on_change"();--> statement-breakpoint
CREATE TRIGGER "service_requests_count_delete" AFTER DELETE ON "service_requests"
REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION "service_request_status_counts_on_change"();--> statement-breakpoint
CREATE TRIGGER "service_requests_count_truncate" AFTER TRUNCATE ON "service_requests"
FOR EACH STATEMENT EXECUTE FUNCTION "service_request_status_counts_on_truncate"();
