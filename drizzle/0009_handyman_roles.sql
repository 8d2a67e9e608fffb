-- Roles (ADR 047): every existing employee becomes office staff (the column's default);
-- idempotency keys of the handyman's actions (ADR 048); the start of a visit; after photos.
CREATE TABLE "action_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"actor_id" text NOT NULL,
	"action" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "appointments" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "staff_role" text DEFAULT 'office' NOT NULL;--> statement-breakpoint
ALTER TABLE "request_photos" ADD COLUMN "after_visit_id" uuid;--> statement-breakpoint
ALTER TABLE "request_photos" ADD CONSTRAINT "request_photos_after_visit_id_appointments_id_fk" FOREIGN KEY ("after_visit_id") REFERENCES "public"."appointments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointments_employee_date_idx" ON "appointments" USING btree ("assigned_employee_id","scheduled_date","start_time");--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_staff_role" CHECK ("profiles"."staff_role" in ('office', 'handyman'));