ALTER TABLE "calendar_days" ADD COLUMN "price_value_seq" bigint;--> statement-breakpoint
ALTER TABLE "calendar_days" ADD COLUMN "availability_value_seq" bigint;--> statement-breakpoint
ALTER TABLE "calendar_days" ADD COLUMN "min_stay_value_seq" bigint;--> statement-breakpoint
ALTER TABLE "calendar_days" ADD COLUMN "notes_value_seq" bigint;--> statement-breakpoint
ALTER TABLE "calendar_days" ADD COLUMN "max_stay_value_seq" bigint;--> statement-breakpoint
ALTER TABLE "calendar_days" ADD COLUMN "closed_to_arrival_value_seq" bigint;--> statement-breakpoint
ALTER TABLE "calendar_days" ADD COLUMN "closed_to_departure_value_seq" bigint;