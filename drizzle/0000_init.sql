CREATE SEQUENCE "public"."calendar_request_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "access_tokens" (
	"uid" text PRIMARY KEY NOT NULL,
	"company_uid" text NOT NULL,
	"app_uid" text NOT NULL,
	"token_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"revoked" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "apps" (
	"uid" text PRIMARY KEY NOT NULL,
	"company_uid" text NOT NULL,
	"name" text NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"booking_uid" text PRIMARY KEY NOT NULL,
	"company_uid" text NOT NULL,
	"property_uid" text NOT NULL,
	"listing_uid" text NOT NULL,
	"guest_uid" text NOT NULL,
	"host_uid" text NOT NULL,
	"reservation_code" text NOT NULL,
	"readable_reservation_code" text NOT NULL,
	"booking_status" text NOT NULL,
	"platform_type" text NOT NULL,
	"number_of_guests" integer NOT NULL,
	"local_checkin_dttm" timestamp(0) NOT NULL,
	"local_checkout_dttm" timestamp(0) NOT NULL,
	"created_dttm" timestamp(0) NOT NULL,
	"updated_dttm" timestamp(0) NOT NULL,
	"booked_dttm" timestamp(0) NOT NULL,
	"currency" text NOT NULL,
	"price_base" numeric(12, 2) NOT NULL,
	"price_extras" numeric(12, 2) NOT NULL,
	"price_fee" numeric(12, 2) NOT NULL,
	"price_tax" numeric(12, 2) NOT NULL,
	"price_total" numeric(12, 2) NOT NULL,
	"door_access_code" text
);
--> statement-breakpoint
CREATE TABLE "calendar_days" (
	"company_uid" text NOT NULL,
	"property_uid" text NOT NULL,
	"date" date NOT NULL,
	"price" numeric(12, 2),
	"currency" text,
	"price_seq" bigint DEFAULT 0 NOT NULL,
	"is_available" boolean,
	"availability_seq" bigint DEFAULT 0 NOT NULL,
	"min_stay" integer,
	"min_stay_seq" bigint DEFAULT 0 NOT NULL,
	"notes" text,
	"notes_seq" bigint DEFAULT 0 NOT NULL,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"request_uid" text,
	"updated_dttm" timestamp with time zone,
	CONSTRAINT "calendar_days_property_uid_date_pk" PRIMARY KEY("property_uid","date")
);
--> statement-breakpoint
CREATE TABLE "calendar_requests" (
	"uid" text PRIMARY KEY NOT NULL,
	"company_uid" text NOT NULL,
	"property_uid" text NOT NULL,
	"seq" bigint DEFAULT nextval('calendar_request_seq') NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"days" jsonb NOT NULL,
	"days_total" integer NOT NULL,
	"days_applied" integer,
	"warnings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"request_error" text,
	"created_dttm" timestamp with time zone DEFAULT now() NOT NULL,
	"started_dttm" timestamp with time zone,
	"finished_dttm" timestamp with time zone,
	"enqueued_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"uid" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"token_uid" text NOT NULL,
	"key" text NOT NULL,
	"company_uid" text NOT NULL,
	"body_hash" text NOT NULL,
	"status" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_token_uid_key_pk" PRIMARY KEY("token_uid","key")
);
--> statement-breakpoint
CREATE TABLE "properties" (
	"uid" text PRIMARY KEY NOT NULL,
	"company_uid" text NOT NULL,
	"name" text NOT NULL,
	"time_zone" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_counters" (
	"key" text NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "rate_limit_counters_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"task_uid" text PRIMARY KEY NOT NULL,
	"company_uid" text NOT NULL,
	"property_uid" text NOT NULL,
	"team_member_uid" text,
	"task_type" text NOT NULL,
	"task_status" text NOT NULL,
	"description" text,
	"local_start_dttm" timestamp(0) NOT NULL,
	"local_end_dttm" timestamp(0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"uid" text PRIMARY KEY NOT NULL,
	"company_uid" text NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_company_uid_companies_uid_fk" FOREIGN KEY ("company_uid") REFERENCES "public"."companies"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_app_uid_apps_uid_fk" FOREIGN KEY ("app_uid") REFERENCES "public"."apps"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apps" ADD CONSTRAINT "apps_company_uid_companies_uid_fk" FOREIGN KEY ("company_uid") REFERENCES "public"."companies"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_company_uid_companies_uid_fk" FOREIGN KEY ("company_uid") REFERENCES "public"."companies"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_property_uid_properties_uid_fk" FOREIGN KEY ("property_uid") REFERENCES "public"."properties"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_days" ADD CONSTRAINT "calendar_days_company_uid_companies_uid_fk" FOREIGN KEY ("company_uid") REFERENCES "public"."companies"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_days" ADD CONSTRAINT "calendar_days_property_uid_properties_uid_fk" FOREIGN KEY ("property_uid") REFERENCES "public"."properties"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_requests" ADD CONSTRAINT "calendar_requests_company_uid_companies_uid_fk" FOREIGN KEY ("company_uid") REFERENCES "public"."companies"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_requests" ADD CONSTRAINT "calendar_requests_property_uid_properties_uid_fk" FOREIGN KEY ("property_uid") REFERENCES "public"."properties"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_company_uid_companies_uid_fk" FOREIGN KEY ("company_uid") REFERENCES "public"."companies"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_company_uid_companies_uid_fk" FOREIGN KEY ("company_uid") REFERENCES "public"."companies"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_property_uid_properties_uid_fk" FOREIGN KEY ("property_uid") REFERENCES "public"."properties"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_team_member_uid_team_members_uid_fk" FOREIGN KEY ("team_member_uid") REFERENCES "public"."team_members"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_company_uid_companies_uid_fk" FOREIGN KEY ("company_uid") REFERENCES "public"."companies"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "access_tokens_hash_idx" ON "access_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "access_tokens_company_idx" ON "access_tokens" USING btree ("company_uid");--> statement-breakpoint
CREATE INDEX "apps_company_idx" ON "apps" USING btree ("company_uid");--> statement-breakpoint
CREATE INDEX "bookings_company_checkin_idx" ON "bookings" USING btree ("company_uid","local_checkin_dttm","booking_uid");--> statement-breakpoint
CREATE INDEX "bookings_company_created_idx" ON "bookings" USING btree ("company_uid","created_dttm" DESC NULLS LAST,"booking_uid");--> statement-breakpoint
CREATE INDEX "bookings_company_property_checkin_idx" ON "bookings" USING btree ("company_uid","property_uid","local_checkin_dttm");--> statement-breakpoint
CREATE INDEX "bookings_company_updated_idx" ON "bookings" USING btree ("company_uid","updated_dttm");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_requests_seq_idx" ON "calendar_requests" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "calendar_requests_company_idx" ON "calendar_requests" USING btree ("company_uid","uid");--> statement-breakpoint
CREATE INDEX "calendar_requests_pending_idx" ON "calendar_requests" USING btree ("created_dttm") WHERE status in ('queued', 'processing');--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "properties_company_idx" ON "properties" USING btree ("company_uid");--> statement-breakpoint
CREATE INDEX "tasks_company_start_idx" ON "tasks" USING btree ("company_uid","local_start_dttm","task_uid");--> statement-breakpoint
CREATE INDEX "tasks_company_property_idx" ON "tasks" USING btree ("company_uid","property_uid");--> statement-breakpoint
CREATE INDEX "team_members_company_idx" ON "team_members" USING btree ("company_uid");