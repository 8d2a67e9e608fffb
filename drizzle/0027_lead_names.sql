-- Hand-written (ADR 096): the names say the business. The person who showed interest is a lead
-- (the table "prospects" becomes "leads"), and each of their form posts is an entry (the table
-- "leads" becomes "lead_entries"); an entry's and an intro call's "prospect_id" become "lead_id".
-- Renames keep every row, key and constraint; only the names and the one function body that
-- named a table change.
ALTER TABLE "leads" RENAME TO "lead_entries";--> statement-breakpoint
ALTER TABLE "lead_entries" RENAME CONSTRAINT "leads_pkey" TO "lead_entries_pkey";--> statement-breakpoint
ALTER INDEX "leads_email_idx" RENAME TO "lead_entries_email_idx";--> statement-breakpoint
ALTER INDEX "leads_created_idx" RENAME TO "lead_entries_created_idx";--> statement-breakpoint
ALTER INDEX "leads_prospect_idx" RENAME TO "lead_entries_lead_idx";--> statement-breakpoint
ALTER TABLE "lead_entries" RENAME COLUMN "prospect_id" TO "lead_id";--> statement-breakpoint
ALTER TABLE "lead_entries" RENAME CONSTRAINT "leads_prospect_id_prospects_id_fk" TO "lead_entries_lead_id_leads_id_fk";--> statement-breakpoint
ALTER TABLE "intro_calls" RENAME COLUMN "prospect_id" TO "lead_id";--> statement-breakpoint
ALTER TABLE "intro_calls" RENAME CONSTRAINT "intro_calls_prospect_id_prospects_id_fk" TO "intro_calls_lead_id_leads_id_fk";--> statement-breakpoint
ALTER INDEX "intro_calls_prospect_idx" RENAME TO "intro_calls_lead_idx";--> statement-breakpoint
ALTER TABLE "prospects" RENAME TO "leads";--> statement-breakpoint
ALTER TABLE "leads" RENAME CONSTRAINT "prospects_pkey" TO "leads_pkey";--> statement-breakpoint
ALTER TABLE "leads" RENAME CONSTRAINT "prospects_lost_has_reason" TO "leads_lost_has_reason";--> statement-breakpoint
ALTER TABLE "leads" RENAME CONSTRAINT "prospects_owner_id_user_id_fk" TO "leads_owner_id_user_id_fk";--> statement-breakpoint
ALTER TABLE "leads" RENAME CONSTRAINT "prospects_customer_id_user_id_fk" TO "leads_customer_id_user_id_fk";--> statement-breakpoint
ALTER INDEX "prospects_email_unique" RENAME TO "leads_email_unique";--> statement-breakpoint
ALTER INDEX "prospects_last_entry_idx" RENAME TO "leads_last_entry_idx";--> statement-breakpoint
ALTER INDEX "prospects_customer_idx" RENAME TO "leads_customer_idx";--> statement-breakpoint
ALTER INDEX "prospects_status_idx" RENAME TO "leads_status_idx";--> statement-breakpoint
ALTER TABLE "appointments" RENAME CONSTRAINT "appointments_lead_id_prospects_id_fk" TO "appointments_lead_id_leads_id_fk";--> statement-breakpoint
ALTER TRIGGER "prospects_walk_thrus_follow_customer" ON "leads" RENAME TO "leads_walk_thrus_follow_customer";--> statement-breakpoint
ALTER FUNCTION "prospects_walk_thrus_follow_customer"() RENAME TO "leads_walk_thrus_follow_customer";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "appointments_walk_thru_of_customer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."kind" = 'walk_thru' AND NEW."customer_id" IS NULL AND NEW."lead_id" IS NOT NULL THEN
		SELECT l."customer_id" INTO NEW."customer_id" FROM "leads" l WHERE l."id" = NEW."lead_id";
	END IF;
	RETURN NEW;
END $$;
