-- Parts settled (issue 39 item 6, issue 40 item 10): office staff remove a wrong part
-- ('removed'); a canceled membership's parts still waiting are withdrawn ('withdrawn'). The new
-- values are not used in this migration (a value added to an enum cannot be used in the
-- transaction that adds it).
ALTER TYPE "public"."part_status" ADD VALUE 'removed';--> statement-breakpoint
ALTER TYPE "public"."part_status" ADD VALUE 'withdrawn';--> statement-breakpoint
ALTER TABLE "membership_parts" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "membership_parts" ADD COLUMN "removed_by" text;--> statement-breakpoint
ALTER TABLE "membership_parts" ADD CONSTRAINT "membership_parts_removed_by_user_id_fk" FOREIGN KEY ("removed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;
