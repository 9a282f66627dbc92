ALTER TABLE "calendar_days" ADD COLUMN "max_stay" integer;--> statement-breakpoint
ALTER TABLE "calendar_days" ADD COLUMN "max_stay_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_days" ADD COLUMN "closed_to_arrival" boolean;--> statement-breakpoint
ALTER TABLE "calendar_days" ADD COLUMN "closed_to_arrival_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_days" ADD COLUMN "closed_to_departure" boolean;--> statement-breakpoint
ALTER TABLE "calendar_days" ADD COLUMN "closed_to_departure_seq" bigint DEFAULT 0 NOT NULL;