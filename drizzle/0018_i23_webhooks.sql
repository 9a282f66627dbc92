CREATE TABLE "webhook_fanout" (
	"id" integer PRIMARY KEY NOT NULL,
	"pos" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_events" ALTER COLUMN "request_uid" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "type" text DEFAULT 'calendar.request.finished' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "event_uid" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "object_key" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "seq" bigint;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "data" jsonb;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "retry_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "events" jsonb DEFAULT '["calendar.request.finished"]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "previous_secret" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "previous_secret_until" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_event_uid_idx" ON "webhook_events" USING btree ("app_uid","event_uid");--> statement-breakpoint
CREATE INDEX "webhook_events_object_idx" ON "webhook_events" USING btree ("app_uid","object_key","seq") WHERE status = 'pending' and object_key is not null;