ALTER TABLE "memberships" ADD COLUMN "offer_id" uuid;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_offer_id_membership_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."membership_offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_one_per_offer" ON "memberships" USING btree ("offer_id");
