DROP INDEX "bookings_company_checkin_idx";--> statement-breakpoint
DROP INDEX "bookings_company_created_idx";--> statement-breakpoint
DROP INDEX "bookings_company_property_checkin_idx";--> statement-breakpoint
CREATE INDEX "bookings_company_checkout_idx" ON "bookings" USING btree ("company_uid","local_checkout_dttm","local_checkin_dttm");--> statement-breakpoint
CREATE INDEX "bookings_company_booked_idx" ON "bookings" USING btree ("company_uid","booked_dttm");--> statement-breakpoint
CREATE INDEX "bookings_company_checkin_idx" ON "bookings" USING btree ("company_uid","local_checkin_dttm","booking_uid" collate "C");--> statement-breakpoint
CREATE INDEX "bookings_company_created_idx" ON "bookings" USING btree ("company_uid","created_dttm" DESC NULLS FIRST,"booking_uid" collate "C");--> statement-breakpoint
CREATE INDEX "bookings_company_property_checkin_idx" ON "bookings" USING btree ("company_uid","property_uid","local_checkin_dttm","booking_uid" collate "C");