ALTER TABLE "membership_minutes_ledger" DROP CONSTRAINT "membership_minutes_ledger_balance";--> statement-breakpoint
ALTER TABLE "memberships" DROP CONSTRAINT "memberships_minutes_available_not_negative";--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "settlement" jsonb;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_minutes_available_within_a_year_ahead" CHECK ("memberships"."minutes_available" >= -"memberships"."minutes_per_year");