-- Tells every listening worker that changes were recorded (issue 37: an event reaches its receiver
-- at once, not on the fan-out's next scheduled pass). One notification per statement that records
-- changes of a company that has a webhook, folded by Postgres into one per transaction (same
-- channel, same empty payload), sent when, and only if, that transaction commits: the worker's
-- fan-out then stamps and fans them out (worker/fan-out-waker.ts). The scheduled fan-out stays as
-- the safety net for a lost notification.
CREATE OR REPLACE FUNCTION notify_changes_recorded() RETURNS trigger AS $$
BEGIN
  -- Only a change of a company with a webhook wakes anyone: a statement that recorded nothing (an
  -- apply whose days were all unchanged), or only changes no app is told of, sends nothing (the
  -- feed's readers stamp for themselves; the scheduled fan-out moves the cursor past them).
  IF EXISTS (SELECT 1 FROM webhooks w WHERE w.company_uid IN (SELECT company_uid FROM recorded)) THEN
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
