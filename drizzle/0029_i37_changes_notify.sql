-- Tells every listening worker that changes were recorded (issue 37: an event reaches its receiver
-- at once, not on the fan-out's next scheduled pass). One notification per statement that records
-- changes (and only if it recorded any), folded by Postgres into one per transaction (same channel,
-- same empty payload), sent when, and only if, that transaction commits: the worker's fan-out then
-- stamps and fans them out (worker/fan-out-waker.ts). The scheduled fan-out stays as the safety net for a lost notification.
CREATE OR REPLACE FUNCTION notify_changes_recorded() RETURNS trigger AS $$
BEGIN
  -- A statement that recorded nothing (an apply whose days were all unchanged) wakes no one.
  IF EXISTS (SELECT 1 FROM recorded) THEN
    PERFORM pg_notify('changes_recorded', '');
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER changes_recorded_notify
  AFTER INSERT ON changes
  REFERENCING NEW TABLE AS recorded
  FOR EACH STATEMENT
  EXECUTE FUNCTION notify_changes_recorded();
