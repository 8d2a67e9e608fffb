CREATE TYPE "public"."membership_offer_status" AS ENUM('open', 'accepted', 'withdrawn');--> statement-breakpoint
CREATE TYPE "public"."payment_refund_status" AS ENUM('pending', 'to_pay', 'paid');--> statement-breakpoint
-- refund_paid is compared as text in the CHECKs below: a value added to an enum cannot be used
-- in the transaction that adds it (the migrations run in one).
ALTER TYPE "public"."membership_money_kind" ADD VALUE 'refund_paid';--> statement-breakpoint
ALTER TYPE "public"."outbox_kind" ADD VALUE 'payment_job';--> statement-breakpoint
CREATE TABLE "membership_offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" text NOT NULL,
	"plan" "membership_plan" NOT NULL,
	"billing" "membership_billing" NOT NULL,
	"start_date" date NOT NULL,
	"status" "membership_offer_status" DEFAULT 'open' NOT NULL,
	"checkout_session_id" text,
	"membership_id" uuid,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_customers" (
	"customer_id" text PRIMARY KEY NOT NULL,
	"stripe_customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_customers_stripeCustomerId_unique" UNIQUE("stripe_customer_id")
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"object_id" text,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"outcome" text
);
--> statement-breakpoint
CREATE TABLE "payment_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"membership_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" "payment_refund_status" DEFAULT 'pending' NOT NULL,
	"to_card_cents" integer DEFAULT 0 NOT NULL,
	"method" "payment_method",
	"reference" text,
	"paid_at" timestamp with time zone,
	"paid_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_refunds_amount_positive" CHECK ("payment_refunds"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "payment_schedule" (
	"key" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "membership_money_ledger" DROP CONSTRAINT "membership_money_ledger_sign";--> statement-breakpoint
ALTER TABLE "membership_money_ledger" DROP CONSTRAINT "membership_money_ledger_payment_method";--> statement-breakpoint
ALTER TABLE "membership_money_ledger" ADD COLUMN "provider_ref" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "payment_provider" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "stripe_subscription_id" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "past_due_since" date;--> statement-breakpoint
ALTER TABLE "membership_offers" ADD CONSTRAINT "membership_offers_customer_id_user_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."user"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_offers" ADD CONSTRAINT "membership_offers_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_offers" ADD CONSTRAINT "membership_offers_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_customers" ADD CONSTRAINT "payment_customers_customer_id_user_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_membership_id_memberships_id_fk" FOREIGN KEY ("membership_id") REFERENCES "public"."memberships"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_refunds" ADD CONSTRAINT "payment_refunds_paid_by_user_id_fk" FOREIGN KEY ("paid_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "membership_offers_one_open_per_customer" ON "membership_offers" USING btree ("customer_id") WHERE "membership_offers"."status" = 'open';--> statement-breakpoint
CREATE INDEX "payment_events_received_idx" ON "payment_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "payment_refunds_status_idx" ON "payment_refunds" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "membership_money_ledger_provider_ref" ON "membership_money_ledger" USING btree ("provider_ref");--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_stripeSubscriptionId_unique" UNIQUE("stripe_subscription_id");--> statement-breakpoint
ALTER TABLE "membership_money_ledger" ADD CONSTRAINT "membership_money_ledger_sign" CHECK (("membership_money_ledger"."kind"::text in ('membership_charge', 'extra_visit', 'part', 'shopping_fee', 'refund_paid') and "membership_money_ledger"."amount_cents" > 0) or ("membership_money_ledger"."kind" in ('payment', 'refund') and "membership_money_ledger"."amount_cents" < 0) or ("membership_money_ledger"."kind" = 'correction' and "membership_money_ledger"."amount_cents" <> 0));--> statement-breakpoint
ALTER TABLE "membership_money_ledger" ADD CONSTRAINT "membership_money_ledger_payment_method" CHECK (("membership_money_ledger"."kind"::text in ('payment', 'refund_paid')) = ("membership_money_ledger"."payment_method" is not null));