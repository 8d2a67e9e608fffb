-- Staff search finds names however they were typed (issue 32): "O'Brien" finds "O’Brien" and
-- "Nunez" finds "Núñez". search_fold folds accents, typographic quotes and case (unaccent's
-- rules map ’ ‘ ʼ to '), and both the indexed text and the search go through it. unaccent() is
-- only STABLE (its dictionary could be swapped), so this wrapper names the dictionary by schema
-- and is declared IMMUTABLE, which the expression indexes below need.
CREATE EXTENSION IF NOT EXISTS unaccent SCHEMA public;--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;--> statement-breakpoint
-- Also (issue 32): which default holidays the business closes on, the owner's setting
-- (holiday_closings; a holiday without a row stays closed).
CREATE TABLE "holiday_closings" (
	"holiday" text PRIMARY KEY NOT NULL,
	"closed" boolean NOT NULL,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "profiles_full_name_trgm_idx";--> statement-breakpoint
DROP INDEX "service_requests_title_trgm_idx";--> statement-breakpoint
ALTER TABLE "holiday_closings" ADD CONSTRAINT "holiday_closings_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "profiles_full_name_folded_trgm_idx" ON "profiles" USING gin (search_fold((coalesce(first_name, '') || ' ' || coalesce(last_name, ''))) gin_trgm_ops) WITH (fastupdate=off);--> statement-breakpoint
CREATE INDEX "service_requests_title_folded_trgm_idx" ON "service_requests" USING gin (search_fold("title") gin_trgm_ops) WITH (fastupdate=off);