ALTER TYPE "public"."outbox_kind" ADD VALUE 'sms';--> statement-breakpoint
CREATE TABLE "text_consent_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "text_consent_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text,
	"phone" text NOT NULL,
	"event" text NOT NULL,
	"source" text NOT NULL,
	"provider_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "recipient_id" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "provider_id" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "provider_status" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "mobile_phone" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "text_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "text_consent_source" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "text_stopped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "notification_prefs" jsonb;--> statement-breakpoint
ALTER TABLE "visit_calendar" ADD COLUMN "reminder_text_outbox_id" uuid;--> statement-breakpoint
ALTER TABLE "text_consent_events" ADD CONSTRAINT "text_consent_events_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "text_consent_events_phone_idx" ON "text_consent_events" USING btree ("phone","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "text_consent_events_provider_id_idx" ON "text_consent_events" USING btree ("provider_id");--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_recipient_id_user_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_calendar" ADD CONSTRAINT "visit_calendar_reminder_text_outbox_id_outbox_id_fk" FOREIGN KEY ("reminder_text_outbox_id") REFERENCES "public"."outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_recipient_idx" ON "outbox" USING btree ("recipient_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_provider_id_idx" ON "outbox" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "profiles_mobile_phone_idx" ON "profiles" USING btree ("mobile_phone");