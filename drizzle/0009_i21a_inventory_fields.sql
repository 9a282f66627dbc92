ALTER TABLE "companies" ADD COLUMN "location" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "contact_name" text;--> statement-breakpoint
ALTER TABLE "guests" ADD COLUMN "thumbnail_url" text;--> statement-breakpoint
ALTER TABLE "hosts" ADD COLUMN "thumbnail_url" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "widget_listing_uuid" text;