ALTER TABLE "membership_parts" ADD COLUMN "receipt_path" text;--> statement-breakpoint
ALTER TABLE "membership_parts" ADD COLUMN "receipt_thumbnail_path" text;