CREATE TABLE "closed_days" (
	"date" date PRIMARY KEY NOT NULL,
	"closed" boolean NOT NULL,
	"note" text,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "employee_time_off" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"employee_id" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"note" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "employee_time_off_range" CHECK ("employee_time_off"."start_date" <= "employee_time_off"."end_date")
);
--> statement-breakpoint
CREATE TABLE "employee_working_hours" (
	"employee_id" text NOT NULL,
	"weekday" integer NOT NULL,
	"is_working" boolean NOT NULL,
	"start_minute" integer NOT NULL,
	"end_minute" integer NOT NULL,
	CONSTRAINT "employee_working_hours_employee_id_weekday_pk" PRIMARY KEY("employee_id","weekday"),
	CONSTRAINT "employee_working_hours_weekday" CHECK ("employee_working_hours"."weekday" between 0 and 6),
	CONSTRAINT "employee_working_hours_range" CHECK ("employee_working_hours"."start_minute" >= 0 and "employee_working_hours"."end_minute" <= 1440 and "employee_working_hours"."start_minute" < "employee_working_hours"."end_minute")
);
--> statement-breakpoint
CREATE TABLE "visit_calendar" (
	"appointment_id" uuid PRIMARY KEY NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"reminder_outbox_id" uuid,
	"canceled_at" timestamp with time zone,
	"canceled_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "closed_days" ADD CONSTRAINT "closed_days_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_time_off" ADD CONSTRAINT "employee_time_off_employee_id_user_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_time_off" ADD CONSTRAINT "employee_time_off_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_working_hours" ADD CONSTRAINT "employee_working_hours_employee_id_user_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_calendar" ADD CONSTRAINT "visit_calendar_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_calendar" ADD CONSTRAINT "visit_calendar_reminder_outbox_id_outbox_id_fk" FOREIGN KEY ("reminder_outbox_id") REFERENCES "public"."outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_calendar" ADD CONSTRAINT "visit_calendar_canceled_by_user_id_fk" FOREIGN KEY ("canceled_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "employee_time_off_employee_idx" ON "employee_time_off" USING btree ("employee_id","end_date");--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
-- One handyman never holds two overlapping visits, whoever books them and however many
-- servers race (docs/decisions/016-booking-no-double-booking.md). Visits are wall-clock times
-- in the business time zone, so a timestamp without time zone is the right range type.
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_no_double_booking" EXCLUDE USING gist (
	"assigned_employee_id" WITH =,
	tsrange("scheduled_date" + "start_time", "scheduled_date" + "end_time", '[)') WITH &&
) WHERE ("assigned_employee_id" IS NOT NULL AND "status" = 'approved');
