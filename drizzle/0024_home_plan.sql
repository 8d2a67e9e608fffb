-- Written by hand (ADR 087): the home the membership cares for, its appliances and systems, its
-- maintenance plan, the history of every change, and the label photos read on our server.
--
-- 1. The appliances and systems of a home. "installed" is a year, or a day when it is known;
--    installed_estimated marks a year read from the serial number, not from the member.
CREATE TABLE "home_appliances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"home_id" uuid NOT NULL,
	"type" text NOT NULL,
	"brand" text,
	"model" text,
	"serial_number" text,
	"installed_year" integer,
	"installed_on" date,
	"installed_estimated" boolean DEFAULT false NOT NULL,
	"warranty_ends_on" date,
	"location" text,
	"filter_size" text,
	"notes" text,
	"label_photo_path" text,
	"label_thumbnail_path" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "home_appliances_type" CHECK ("type" in ('water_heater', 'furnace', 'air_conditioner', 'dishwasher', 'refrigerator', 'washer', 'dryer', 'garbage_disposal', 'smoke_co_detectors', 'sump_pump', 'water_softener', 'other')),
	CONSTRAINT "home_appliances_installed_year" CHECK ("installed_year" is null or ("installed_year" between 1900 and 2200))
);--> statement-breakpoint
ALTER TABLE "home_appliances" ADD CONSTRAINT "home_appliances_home_id_homes_id_fk" FOREIGN KEY ("home_id") REFERENCES "public"."homes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "home_appliances_home_idx" ON "home_appliances" USING btree ("home_id","created_at");--> statement-breakpoint
-- 2. The maintenance plan's tasks. `months` are the months of the year it is due (1-12);
--    `catalog_key` names the task of the catalog it came from (app/features/home/catalog.ts):
--    one per home, a removed one included, so drawing the plan again never brings back what
--    staff took out. `requested_due_on`: the due month a request of the member's was opened for
--    (a task due becomes bookable once per time it falls due, ADR 087).
CREATE TABLE "home_plan_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"home_id" uuid NOT NULL,
	"catalog_key" text,
	"title" text NOT NULL,
	"months" integer[] NOT NULL,
	"estimated_minutes" integer NOT NULL,
	"appliance_id" uuid,
	"last_done_on" date,
	"requested_due_on" date,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "home_plan_tasks_months" CHECK (cardinality("months") between 1 and 12 and 1 <= all("months") and 12 >= all("months")),
	CONSTRAINT "home_plan_tasks_minutes" CHECK ("estimated_minutes" between 5 and 480)
);--> statement-breakpoint
ALTER TABLE "home_plan_tasks" ADD CONSTRAINT "home_plan_tasks_home_id_homes_id_fk" FOREIGN KEY ("home_id") REFERENCES "public"."homes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "home_plan_tasks" ADD CONSTRAINT "home_plan_tasks_appliance_id_home_appliances_id_fk" FOREIGN KEY ("appliance_id") REFERENCES "public"."home_appliances"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "home_plan_tasks_one_per_catalog_key" ON "home_plan_tasks" USING btree ("home_id","catalog_key") WHERE "catalog_key" is not null;--> statement-breakpoint
CREATE INDEX "home_plan_tasks_home_idx" ON "home_plan_tasks" USING btree ("home_id");--> statement-breakpoint
-- 3. Who changed what in the home's record, and when (the name as it was, kept if the account goes).
CREATE TABLE "home_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"home_id" uuid NOT NULL,
	"actor_id" text,
	"actor_name" text NOT NULL,
	"summary" text NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "home_history" ADD CONSTRAINT "home_history_home_id_homes_id_fk" FOREIGN KEY ("home_id") REFERENCES "public"."homes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "home_history" ADD CONSTRAINT "home_history_actor_id_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "home_history_home_idx" ON "home_history" USING btree ("home_id","created_at");--> statement-breakpoint
-- 4. A label photo and what was read from it, until a person saves the appliance from it.
CREATE TABLE "home_label_reads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"home_id" uuid NOT NULL,
	"created_by" text,
	"photo_path" text NOT NULL,
	"thumbnail_path" text NOT NULL,
	"brand" text,
	"model" text,
	"serial_number" text,
	"installed_year" integer,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "home_label_reads" ADD CONSTRAINT "home_label_reads_home_id_homes_id_fk" FOREIGN KEY ("home_id") REFERENCES "public"."homes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "home_label_reads" ADD CONSTRAINT "home_label_reads_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- 5. A plan task due becomes a request of the member's, once per time it falls due: the
--    request names its task and the month it was due for, and the unique index holds it to one.
ALTER TABLE "service_requests" ADD COLUMN "plan_task_id" uuid;--> statement-breakpoint
ALTER TABLE "service_requests" ADD COLUMN "plan_due_on" date;--> statement-breakpoint
ALTER TABLE "service_requests" ADD CONSTRAINT "service_requests_plan_task_id_home_plan_tasks_id_fk" FOREIGN KEY ("plan_task_id") REFERENCES "public"."home_plan_tasks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "service_requests_one_per_plan_due" ON "service_requests" USING btree ("plan_task_id","plan_due_on") WHERE "plan_task_id" is not null;--> statement-breakpoint
-- 6. 'Your home this month': one notice per member per month.
CREATE TABLE "home_month_notices" (
	"customer_id" text NOT NULL,
	"month" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "home_month_notices_customer_id_month_pk" PRIMARY KEY("customer_id","month")
);--> statement-breakpoint
ALTER TABLE "home_month_notices" ADD CONSTRAINT "home_month_notices_customer_id_user_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;
