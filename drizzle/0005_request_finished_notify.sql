-- Tells every listening API process that a calendar request became final (long-poll of
-- get-request-status). A trigger, not a call in each statement that finishes a request, so that
-- every path (apply, markError from the worker or the re-enqueue sweep, any later one) notifies,
-- and the notification is sent when, and only if, that transaction commits.
CREATE OR REPLACE FUNCTION notify_calendar_request_finished() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('calendar_request_finished', NEW.uid);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER calendar_request_finished_notify
  AFTER UPDATE OF status ON calendar_requests
  FOR EACH ROW
  WHEN (NEW.status IN ('completed', 'error') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION notify_calendar_request_finished();
