-- Members sign in with their phone number (ADR 086). A mobile signs in only once it is
-- verified with a code; one verified mobile belongs to one account (the partial unique index),
-- so a number never names two people at sign-in. Changing the number clears the mark.
ALTER TABLE "profiles" ADD COLUMN "mobile_verified_at" timestamp with time zone;
--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_verified_mobile_idx" ON "profiles" ("mobile_phone") WHERE "mobile_verified_at" IS NOT NULL;
--> statement-breakpoint
-- One row per code texted (to sign in, or to verify the mobile): never the code itself, only
-- its HMAC under the auth secret; 5 minutes, 3 tries, then void.
CREATE TABLE "text_codes" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "purpose" text NOT NULL,
  "phone" text NOT NULL,
  "user_id" text NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
  "code_hash" text NOT NULL,
  "tries" integer DEFAULT 0 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "used_at" timestamp with time zone,
  "voided_at" timestamp with time zone,
  "session_at" timestamp with time zone,
  CONSTRAINT "text_codes_purpose" CHECK ("purpose" in ('sign-in', 'verify')),
  CONSTRAINT "text_codes_tries" CHECK ("tries" >= 0 AND "tries" <= 3)
);
--> statement-breakpoint
CREATE INDEX "text_codes_phone_idx" ON "text_codes" ("phone", "created_at");
--> statement-breakpoint
CREATE INDEX "text_codes_created_idx" ON "text_codes" ("created_at");
--> statement-breakpoint
-- Sending paused when few codes sent are entered (SMS pumping): one row per pause, the office
-- alerted when it starts.
CREATE TABLE "text_code_pauses" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "started_at" timestamp with time zone NOT NULL,
  "ends_at" timestamp with time zone NOT NULL,
  "sent" integer NOT NULL,
  "entered" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "text_code_pauses_ends_idx" ON "text_code_pauses" ("ends_at");
