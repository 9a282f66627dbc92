CREATE TABLE "change_feed" (
	"id" integer PRIMARY KEY NOT NULL,
	"head" bigint DEFAULT 0 NOT NULL,
	"pruned_through" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"pos" bigint,
	"company_uid" text NOT NULL,
	"kind" text NOT NULL,
	"object_uid" text NOT NULL,
	"op" text DEFAULT 'upsert' NOT NULL,
	"event" text,
	"dates" jsonb,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "changes_dates_only_days" CHECK ((kind = 'calendar_day') = (dates is not null))
);
--> statement-breakpoint
ALTER TABLE "changes" ADD CONSTRAINT "changes_company_uid_companies_uid_fk" FOREIGN KEY ("company_uid") REFERENCES "public"."companies"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "changes_pos_idx" ON "changes" USING btree ("pos");--> statement-breakpoint
CREATE INDEX "changes_company_pos_idx" ON "changes" USING btree ("company_uid","pos");--> statement-breakpoint
CREATE INDEX "changes_unstamped_idx" ON "changes" USING btree ("id") WHERE pos is null;