CREATE TABLE "calendar_proposals" (
	"uid" text PRIMARY KEY NOT NULL,
	"company_uid" text NOT NULL,
	"property_uid" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"is_user_action" boolean DEFAULT false NOT NULL,
	"app_uid" text,
	"created_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_dttm" timestamp with time zone,
	"decided_by" text
);
--> statement-breakpoint
DROP INDEX "calendar_requests_finished_idx";--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "status_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_requests" ADD COLUMN "kind" text DEFAULT 'calendar' NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_requests" ADD COLUMN "proposal_uid" text;--> statement-breakpoint
ALTER TABLE "calendar_proposals" ADD CONSTRAINT "calendar_proposals_company_uid_companies_uid_fk" FOREIGN KEY ("company_uid") REFERENCES "public"."companies"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_proposals" ADD CONSTRAINT "calendar_proposals_property_uid_properties_uid_fk" FOREIGN KEY ("property_uid") REFERENCES "public"."properties"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_proposals_pending_idx" ON "calendar_proposals" USING btree ("company_uid","created_dttm") WHERE status = 'pending';--> statement-breakpoint
ALTER TABLE "calendar_requests" ADD CONSTRAINT "calendar_requests_proposal_uid_calendar_proposals_uid_fk" FOREIGN KEY ("proposal_uid") REFERENCES "public"."calendar_proposals"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "calendar_requests_proposal_idx" ON "calendar_requests" USING btree ("proposal_uid") WHERE proposal_uid is not null;--> statement-breakpoint
CREATE INDEX "calendar_requests_finished_idx" ON "calendar_requests" USING btree ("finished_dttm") WHERE status in ('completed', 'error', 'disabled');