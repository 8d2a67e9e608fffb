-- Issue 39: the outbox gives up on an item after OUTBOX_MAX_ATTEMPTS tries ('Failed deliveries',
-- retried by office staff); a member's choice for the annual renewal; the Stripe object that
-- paid an offer (a second one is refunded) and the Checkout attempt of an offer (its key).
ALTER TABLE "outbox" ADD COLUMN "failed_at" timestamp with time zone;--> statement-breakpoint
DROP INDEX IF EXISTS "outbox_pending_idx";--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "outbox" USING btree ("next_attempt_at") WHERE "outbox"."delivered_at" is null and "outbox"."failed_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_failed_idx" ON "outbox" USING btree ("failed_at") WHERE "outbox"."failed_at" is not null and "outbox"."delivered_at" is null;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "renewal_choice" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_renewal_choice" CHECK ("memberships"."renewal_choice" in ('monthly', 'cancel'));--> statement-breakpoint
ALTER TABLE "membership_offers" ADD COLUMN "checkout_attempt" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "membership_offers" ADD COLUMN "paid_by" text;
