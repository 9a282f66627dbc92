-- The calendar pump (issue 37; worker/calendar-pump.ts). Its claim: batches never started and never
-- handed to the queue, oldest first. (A stored batch wakes the pumps by the insert's own pg_notify,
-- sent only with CALENDAR_PUMP on: requests.repository.ts InsertOptions.wake.)
CREATE INDEX "calendar_requests_unstarted_idx" ON "calendar_requests" USING btree ("seq") WHERE status = 'queued' and kind = 'calendar' and started_dttm is null and enqueued_at is null;
