CREATE TABLE "guests" (
	"uid" text NOT NULL,
	"company_uid" text NOT NULL,
	"name" text,
	"emails" text[] DEFAULT '{}'::text[] NOT NULL,
	"phones" text[] DEFAULT '{}'::text[] NOT NULL,
	"platform_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guests_company_uid_uid_pk" PRIMARY KEY("company_uid","uid")
);
--> statement-breakpoint
CREATE TABLE "hosts" (
	"uid" text NOT NULL,
	"company_uid" text NOT NULL,
	"name" text,
	"emails" text[] DEFAULT '{}'::text[] NOT NULL,
	"phones" text[] DEFAULT '{}'::text[] NOT NULL,
	"platform_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hosts_company_uid_uid_pk" PRIMARY KEY("company_uid","uid")
);
--> statement-breakpoint
CREATE TABLE "listings" (
	"uid" text NOT NULL,
	"company_uid" text NOT NULL,
	"property_uid" text NOT NULL,
	"platform_type" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'listed' NOT NULL,
	"url" text,
	"thumbnail_url" text,
	"host_uid" text NOT NULL,
	"is_cohosted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "listings_company_uid_uid_pk" PRIMARY KEY("company_uid","uid")
);
--> statement-breakpoint
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_property_uid_properties_uid_fk";
--> statement-breakpoint
ALTER TABLE "tasks" DROP CONSTRAINT "tasks_property_uid_properties_uid_fk";
--> statement-breakpoint
ALTER TABLE "tasks" DROP CONSTRAINT "tasks_team_member_uid_team_members_uid_fk";
--> statement-breakpoint
DROP INDEX "properties_company_idx";
--> statement-breakpoint
DROP INDEX "team_members_company_idx";
--> statement-breakpoint
ALTER TABLE "team_members" ALTER COLUMN "role" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "legacy_overlap" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "email" text;
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "phone" text;
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "website" text;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "address" text;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "checkin_time" integer DEFAULT 15 NOT NULL;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "checkout_time" integer DEFAULT 11 NOT NULL;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "beds" integer;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "bedrooms" integer;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "bathrooms" numeric(4, 1);
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "is_active" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "comment" text;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "clean_hr" numeric(5, 2);
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "clean_tm" text;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "clean_beds_k" integer;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "clean_beds_q" integer;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "clean_beds_d" integer;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "clean_beds_s" integer;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "clean_specials" text;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "is_inbox_enabled" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "are_auto_reviews_enabled" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "ical_token" text;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "country_code" text;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "postal_code" text;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "lat" double precision;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "lng" double precision;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "street" text;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "city" text;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "calendar_control_allowed" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "door_access_code" text;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "base_price" numeric(12, 2);
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "default_min_stay" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "email" text;
--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "phone" text;
--> statement-breakpoint
ALTER TABLE "team_members" ADD COLUMN "member_status" text DEFAULT 'active' NOT NULL;
--> statement-breakpoint
CREATE INDEX "listings_company_property_idx" ON "listings" USING btree ("company_uid","property_uid");
--> statement-breakpoint
CREATE INDEX "bookings_company_reservation_idx" ON "bookings" USING btree ("company_uid","reservation_code");
--> statement-breakpoint
CREATE UNIQUE INDEX "properties_company_uid_idx" ON "properties" USING btree ("company_uid","uid");
--> statement-breakpoint
CREATE UNIQUE INDEX "team_members_company_uid_idx" ON "team_members" USING btree ("company_uid","uid");
--> statement-breakpoint
-- Backfill (hand-written, issue 10). Existing data migrates without loss: every uid a booking
-- already carried becomes a row it can reference, and the old free-text role and active flag are
-- mapped onto the iGMS roles / member_status (the role text itself stays in "role").
ALTER TABLE "team_members" ADD COLUMN "roles" text[];
--> statement-breakpoint
UPDATE "team_members" SET
	"roles" = CASE WHEN "role" IN ('admin','manager','accountant','calendar_viewer','tasks_manager','price_manager','cleaner','handyman','head_of_cleaners','guest_support','guest_communications','property_owner','financial_viewer','reporting','concierge','tenant','landlord','channel_management','website_editor','smart_devices_manager')
		THEN ARRAY["role"] ELSE ARRAY['tasks_manager'] END,
	"member_status" = CASE WHEN "active" THEN 'active' ELSE 'pending' END;
--> statement-breakpoint
ALTER TABLE "team_members" ALTER COLUMN "roles" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "team_members" DROP COLUMN "active";
--> statement-breakpoint
-- A property's currency: the one most of its bookings use (USD when it has none).
UPDATE "properties" p SET "currency" = b.currency
FROM (SELECT property_uid, mode() WITHIN GROUP (ORDER BY currency) AS currency FROM "bookings" GROUP BY property_uid) b
WHERE b.property_uid = p.uid;
--> statement-breakpoint
-- Names were never known for these: null, which is how the wire shows an unknown value.
INSERT INTO "hosts" ("uid", "company_uid", "platform_type")
SELECT host_uid, company_uid, mode() WITHIN GROUP (ORDER BY platform_type) FROM "bookings" GROUP BY company_uid, host_uid;
--> statement-breakpoint
INSERT INTO "guests" ("uid", "company_uid", "platform_type")
SELECT guest_uid, company_uid, mode() WITHIN GROUP (ORDER BY platform_type) FROM "bookings" GROUP BY company_uid, guest_uid;
--> statement-breakpoint
INSERT INTO "listings" ("uid", "company_uid", "property_uid", "platform_type", "name", "host_uid")
SELECT l.listing_uid, l.company_uid, l.property_uid, l.platform_type, p.name || ' (' || l.platform_type || ')', l.host_uid
FROM (
	SELECT listing_uid, company_uid,
		mode() WITHIN GROUP (ORDER BY property_uid) AS property_uid,
		mode() WITHIN GROUP (ORDER BY platform_type) AS platform_type,
		mode() WITHIN GROUP (ORDER BY host_uid) AS host_uid
	FROM "bookings" GROUP BY company_uid, listing_uid
) l JOIN "properties" p ON p.uid = l.property_uid;
--> statement-breakpoint
-- Holding bookings of one property that already overlap: the earliest created (then smallest uid)
-- stays under the constraint, and every holding booking overlapping an earlier one is marked
-- legacy_overlap: it keeps its status and still holds its nights, but is exempt from the
-- constraint. Nothing is deleted or re-statused. (The demo seed never creates overlaps.)
UPDATE "bookings" b SET "legacy_overlap" = true
WHERE b.booking_status IN ('new','at_checkpoint','accepted','pending','pending_cancelled','awaiting_payment','unconfirmed','awaiting_acceptance')
AND EXISTS (
	SELECT 1 FROM "bookings" e
	WHERE e.property_uid = b.property_uid
	AND e.booking_status IN ('new','at_checkpoint','accepted','pending','pending_cancelled','awaiting_payment','unconfirmed','awaiting_acceptance')
	AND (e.created_dttm, e.booking_uid) < (b.created_dttm, b.booking_uid)
	AND daterange(e.local_checkin_dttm::date, e.local_checkout_dttm::date, '[)') && daterange(b.local_checkin_dttm::date, b.local_checkout_dttm::date, '[)')
);
--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_roles_check" CHECK (cardinality("team_members"."roles") >= 1);
--> statement-breakpoint
ALTER TABLE "guests" ADD CONSTRAINT "guests_company_uid_companies_uid_fk" FOREIGN KEY ("company_uid") REFERENCES "public"."companies"("uid") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "hosts" ADD CONSTRAINT "hosts_company_uid_companies_uid_fk" FOREIGN KEY ("company_uid") REFERENCES "public"."companies"("uid") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_company_uid_companies_uid_fk" FOREIGN KEY ("company_uid") REFERENCES "public"."companies"("uid") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_property_fk" FOREIGN KEY ("company_uid","property_uid") REFERENCES "public"."properties"("company_uid","uid") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_host_fk" FOREIGN KEY ("company_uid","host_uid") REFERENCES "public"."hosts"("company_uid","uid") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_property_fk" FOREIGN KEY ("company_uid","property_uid") REFERENCES "public"."properties"("company_uid","uid") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_listing_fk" FOREIGN KEY ("company_uid","listing_uid") REFERENCES "public"."listings"("company_uid","uid") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_guest_fk" FOREIGN KEY ("company_uid","guest_uid") REFERENCES "public"."guests"("company_uid","uid") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_host_fk" FOREIGN KEY ("company_uid","host_uid") REFERENCES "public"."hosts"("company_uid","uid") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_property_fk" FOREIGN KEY ("company_uid","property_uid") REFERENCES "public"."properties"("company_uid","uid") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_team_member_fk" FOREIGN KEY ("company_uid","team_member_uid") REFERENCES "public"."team_members"("company_uid","uid") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
-- Overlapping holding bookings of one property are impossible (hand-written: drizzle has no
-- EXCLUDE). Nights are [checkin date, checkout date); the statuses are the holding ones of API.md
-- (shared/bookings/holding.ts names the same list).
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_no_overlap" EXCLUDE USING gist (
	"property_uid" WITH =,
	daterange("local_checkin_dttm"::date, "local_checkout_dttm"::date, '[)') WITH &&
) WHERE (
	"booking_status" IN ('new','at_checkpoint','accepted','pending','pending_cancelled','awaiting_payment','unconfirmed','awaiting_acceptance')
	AND NOT "legacy_overlap"
);
