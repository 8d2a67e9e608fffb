CREATE TYPE "public"."membership_billing" AS ENUM('monthly', 'annual');--> statement-breakpoint
CREATE TYPE "public"."membership_minutes_kind" AS ENUM('accrual', 'reserve', 'release', 'return', 'refund');--> statement-breakpoint
CREATE TYPE "public"."membership_money_kind" AS ENUM('membership_charge', 'extra_visit', 'part', 'shopping_fee', 'payment', 'refund', 'correction');--> statement-breakpoint
CREATE TYPE "public"."membership_plan" AS ENUM('essential', 'complete', 'total');--> statement-breakpoint
CREATE TYPE "public"."membership_status" AS ENUM('active', 'canceled');--> statement-breakpoint
CREATE TYPE "public"."membership_visit_status" AS ENUM('reserved', 'released', 'completed');--> statement-breakpoint
CREATE TYPE "public"."part_status" AS ENUM('pending_approval', 'approved', 'declined', 'bought');--> statement-breakpoint
CREATE TYPE "public"."payment_method" AS ENUM('card', 'check', 'cash', 'bank_transfer');--> statement-breakpoint
-- IF NOT EXISTS: the member self-booking migration adds the same value.
ALTER TYPE "public"."appointment_status" ADD VALUE IF NOT EXISTS 'canceled';--> statement-breakpoint
CREATE TABLE "membership_minutes_ledger" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "membership_minutes_ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"membership_id" uuid NOT NULL,
	"kind" "membership_minutes_kind" NOT NULL,
	"minutes" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"appointment_id" uuid,
	"note" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_minutes_ledger_balance" CHECK ("membership_minutes_ledger"."balance_after" >= 0),
	CONSTRAINT "membership_minutes_ledger_sign" CHECK (("membership_minutes_ledger"."kind" in ('accrual', 'release', 'return') and "membership_minutes_ledger"."minutes" > 0) or ("membership_minutes_ledger"."kind" in ('reserve', 'refund') and "membership_minutes_ledger"."minutes" < 0))
);
--> statement-breakpoint
CREATE TABLE "membership_money_ledger" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "membership_money_ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"membership_id" uuid NOT NULL,
	"kind" "membership_money_kind" NOT NULL,
	"amount_cents" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"description" text NOT NULL,
	"period_start" date,
	"appointment_id" uuid,
	"part_id" uuid,
	"payment_method" "payment_method",
	"reference" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_money_ledger_sign" CHECK (("membership_money_ledger"."kind" in ('membership_charge', 'extra_visit', 'part', 'shopping_fee') and "membership_money_ledger"."amount_cents" > 0) or ("membership_money_ledger"."kind" in ('payment', 'refund') and "membership_money_ledger"."amount_cents" < 0) or ("membership_money_ledger"."kind" = 'correction' and "membership_money_ledger"."amount_cents" <> 0)),
	CONSTRAINT "membership_money_ledger_payment_method" CHECK (("membership_money_ledger"."kind" = 'payment') = ("membership_money_ledger"."payment_method" is not null))
);
--> statement-breakpoint
CREATE TABLE "membership_parts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"membership_id" uuid NOT NULL,
	"appointment_id" uuid NOT NULL,
	"description" text NOT NULL,
	"cost_cents" integer NOT NULL,
	"needs_approval" boolean NOT NULL,
	"status" "part_status" NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"bought_at" timestamp with time zone,
	"bought_by" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_parts_cost" CHECK ("membership_parts"."cost_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "membership_visits" (
	"appointment_id" uuid PRIMARY KEY NOT NULL,
	"membership_id" uuid NOT NULL,
	"block_minutes" integer NOT NULL,
	"is_extra" boolean DEFAULT false NOT NULL,
	"extra_reason" text,
	"status" "membership_visit_status" DEFAULT 'reserved' NOT NULL,
	"minutes_worked" integer,
	"completed_at" timestamp with time zone,
	"completed_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "membership_visits_block" CHECK ("membership_visits"."block_minutes" in (105, 210)),
	CONSTRAINT "membership_visits_worked" CHECK ("membership_visits"."minutes_worked" is null or ("membership_visits"."minutes_worked" between 15 and "membership_visits"."block_minutes" and "membership_visits"."minutes_worked" % 15 = 0))
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" text NOT NULL,
	"home_id" uuid NOT NULL,
	"plan" "membership_plan" NOT NULL,
	"plan_name" text NOT NULL,
	"monthly_price_cents" integer NOT NULL,
	"minutes_per_year" integer NOT NULL,
	"visits_per_year" integer NOT NULL,
	"billing" "membership_billing" NOT NULL,
	"status" "membership_status" DEFAULT 'active' NOT NULL,
	"start_date" date NOT NULL,
	"periods_charged" integer DEFAULT 0 NOT NULL,
	"minutes_available" integer DEFAULT 0 NOT NULL,
	"balance_cents" integer DEFAULT 0 NOT NULL,
	"canceled_on" date,
	"canceled_at" timestamp with time zone,
	"canceled_by" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_minutes_available_not_negative" CHECK ("memberships"."minutes_available" >= 0),
	CONSTRAINT "memberships_terms_positive" CHECK ("memberships"."monthly_price_cents" > 0 and "memberships"."minutes_per_year" > 0 and "memberships"."visits_per_year" > 0),
	CONSTRAINT "memberships_periods_charged" CHECK ("memberships"."periods_charged" >= 0)
);
--> statement-breakpoint
ALTER TABLE "membership_minutes_ledger" ADD CONSTRAINT "membership_minutes_ledger_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_money_ledger" ADD CONSTRAINT "membership_money_ledger_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_parts" ADD CONSTRAINT "membership_parts_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_parts" ADD CONSTRAINT "membership_parts_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_parts" ADD CONSTRAINT "membership_parts_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_parts" ADD CONSTRAINT "membership_parts_bought_by_user_id_fk" FOREIGN KEY ("bought_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_parts" ADD CONSTRAINT "membership_parts_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_visits" ADD CONSTRAINT "membership_visits_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_visits" ADD CONSTRAINT "membership_visits_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_visits" ADD CONSTRAINT "membership_visits_completed_by_user_id_fk" FOREIGN KEY ("completed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_customer_id_user_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_home_id_homes_id_fk" FOREIGN KEY ("home_id") REFERENCES "public"."homes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_canceled_by_user_id_fk" FOREIGN KEY ("canceled_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "membership_minutes_ledger_membership_idx" ON "membership_minutes_ledger" USING btree ("membership_id","id");--> statement-breakpoint
CREATE INDEX "membership_money_ledger_membership_idx" ON "membership_money_ledger" USING btree ("membership_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "membership_money_ledger_one_charge_per_period" ON "membership_money_ledger" USING btree ("membership_id","period_start") WHERE "membership_money_ledger"."kind" = 'membership_charge';--> statement-breakpoint
CREATE UNIQUE INDEX "membership_money_ledger_one_shopping_fee_per_visit" ON "membership_money_ledger" USING btree ("appointment_id") WHERE "membership_money_ledger"."kind" = 'shopping_fee';--> statement-breakpoint
CREATE UNIQUE INDEX "membership_money_ledger_one_charge_per_part" ON "membership_money_ledger" USING btree ("part_id") WHERE "membership_money_ledger"."kind" = 'part';--> statement-breakpoint
CREATE INDEX "membership_parts_membership_idx" ON "membership_parts" USING btree ("membership_id","created_at");--> statement-breakpoint
CREATE INDEX "membership_parts_pending_idx" ON "membership_parts" USING btree ("created_at") WHERE "membership_parts"."status" = 'pending_approval';--> statement-breakpoint
CREATE INDEX "membership_visits_membership_idx" ON "membership_visits" USING btree ("membership_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_one_active_per_home" ON "memberships" USING btree ("home_id") WHERE "memberships"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_one_active_per_customer" ON "memberships" USING btree ("customer_id") WHERE "memberships"."status" = 'active';--> statement-breakpoint
CREATE INDEX "memberships_customer_idx" ON "memberships" USING btree ("customer_id","created_at");;--> statement-breakpoint
-- The ledgers are append-only: a correction is a new entry, never an edit (DESIGN.md decision
-- 14). Row triggers refuse UPDATE and DELETE for every role that can write the tables.
CREATE FUNCTION "membership_ledger_append_only"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are append-only: record a correction instead', TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation';
END
$$;--> statement-breakpoint
CREATE TRIGGER "membership_minutes_ledger_append_only" BEFORE UPDATE OR DELETE ON "membership_minutes_ledger"
FOR EACH ROW EXECUTE FUNCTION "membership_ledger_append_only"();--> statement-breakpoint
CREATE TRIGGER "membership_money_ledger_append_only" BEFORE UPDATE OR DELETE ON "membership_money_ledger"
FOR EACH ROW EXECUTE FUNCTION "membership_ledger_append_only"();
