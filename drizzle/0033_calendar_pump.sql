-- The calendar pump (issue 37; worker/calendar-pump.ts). A stored calendar batch wakes the workers'
-- pumps at its commit: one notification per statement that inserts one, folded by Postgres into one
-- per transaction (same channel, same empty payload). With CALENDAR_PUMP on, the API queues no job
-- for it.
CREATE OR REPLACE FUNCTION notify_requests_queued() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM stored WHERE status = 'queued' AND kind = 'calendar' AND enqueued_at IS NULL) THEN
    PERFORM pg_notify('requests_queued', '');
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER calendar_requests_queued_notify
  AFTER INSERT ON calendar_requests
  REFERENCING NEW TABLE AS stored
  FOR EACH STATEMENT
  EXECUTE FUNCTION notify_requests_queued();
--> statement-breakpoint
-- The pump's claim: batches never started and never handed to the queue, oldest first.
CREATE INDEX "calendar_requests_unstarted_idx" ON "calendar_requests" USING btree ("seq") WHERE status = 'queued' and kind = 'calendar' and started_dttm is null and enqueued_at is null;
