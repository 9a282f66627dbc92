ALTER TABLE "listings" ADD COLUMN "content_title" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "content_description" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "content_photos" jsonb;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "content_amenities" text[];--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "content_house_rules" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "content_max_guests" integer;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "guidebook_link" text;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "selected_insurance_settings" jsonb;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "error_mode" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "guidebook_link" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "insurance_policy" jsonb;--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD COLUMN "error_mode" text;