-- One dedicated handyman per member, a covering handyman when he is away, and specialists
-- referred when the job needs one (issue 41; ADR 088).
-- The member's dedicated handyman, set by office staff (a new member gets one at once).
ALTER TABLE "profiles" ADD COLUMN "dedicated_handyman_id" text REFERENCES "user"("id") ON DELETE SET NULL;
--> statement-breakpoint
CREATE INDEX "profiles_dedicated_handyman_idx" ON "profiles" ("dedicated_handyman_id") WHERE "dedicated_handyman_id" IS NOT NULL;
--> statement-breakpoint
-- Until now the dedicated handyman was whoever came last: each customer keeps that one.
UPDATE "profiles" p SET "dedicated_handyman_id" = last."employee_id"
FROM (
  SELECT DISTINCT ON (a."customer_id") a."customer_id", a."assigned_employee_id" AS "employee_id"
  FROM "appointments" a
  JOIN "profiles" e ON e."user_id" = a."assigned_employee_id" AND e."is_employee"
  WHERE a."customer_id" IS NOT NULL AND a."kind" = 'visit'
  ORDER BY a."customer_id", a."scheduled_date" DESC, a."start_time" DESC
) last
WHERE p."user_id" = last."customer_id" AND NOT p."is_employee";
--> statement-breakpoint
-- A visit booked with the covering handyman: the dedicated handyman he covers for.
ALTER TABLE "appointments" ADD COLUMN "covering_for_id" text REFERENCES "user"("id") ON DELETE SET NULL;
--> statement-breakpoint
CREATE TABLE "specialists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trade" text NOT NULL,
	"company" text NOT NULL,
	"contact_name" text,
	"phone" text,
	"email" text,
	"license_number" text,
	"notes" text,
	"referral_fee_cents" integer,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" text REFERENCES "user"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "specialists_trade" CHECK ("trade" IN ('plumber', 'electrician', 'hvac', 'roofer', 'pest_control', 'other')),
	CONSTRAINT "specialists_referral_fee" CHECK ("referral_fee_cents" IS NULL OR "referral_fee_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "specialist_referrals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"specialist_id" uuid NOT NULL REFERENCES "specialists"("id") ON DELETE RESTRICT,
	"customer_id" text NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
	"appointment_id" uuid REFERENCES "appointments"("id") ON DELETE SET NULL,
	"service_request_id" uuid REFERENCES "service_requests"("id") ON DELETE SET NULL,
	"reason" text NOT NULL,
	"photo_ids" uuid[] DEFAULT '{}' NOT NULL,
	"new_water_or_power" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'referred' NOT NULL,
	"consent_at" timestamp with time zone,
	"referred_by" text REFERENCES "user"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "specialist_referrals_status" CHECK ("status" IN ('referred', 'contacted', 'scheduled', 'done', 'declined'))
);
--> statement-breakpoint
CREATE INDEX "specialist_referrals_customer_idx" ON "specialist_referrals" ("customer_id", "created_at");
--> statement-breakpoint
CREATE INDEX "specialist_referrals_specialist_idx" ON "specialist_referrals" ("specialist_id", "status");
