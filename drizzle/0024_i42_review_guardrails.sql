CREATE TABLE "thread_reads" (
	"company_uid" text NOT NULL,
	"user_uid" text NOT NULL,
	"thread_id" integer NOT NULL,
	"last_message_id" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "thread_reads_user_uid_thread_id_pk" PRIMARY KEY("user_uid","thread_id")
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "price_change_threshold" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "min_price" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "thread_reads" ADD CONSTRAINT "thread_reads_company_uid_companies_uid_fk" FOREIGN KEY ("company_uid") REFERENCES "public"."companies"("uid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thread_reads" ADD CONSTRAINT "thread_reads_user_uid_users_uid_fk" FOREIGN KEY ("user_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thread_reads" ADD CONSTRAINT "thread_reads_thread_fk" FOREIGN KEY ("company_uid","thread_id") REFERENCES "public"."message_threads"("company_uid","id") ON DELETE cascade ON UPDATE no action;