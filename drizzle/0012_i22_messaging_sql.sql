-- Tells every listening API process that an outbound message became final (long-poll of
-- message-status), as calendar_request_finished_notify does for calendar requests: a trigger, so
-- every path that finishes a message notifies, and only when its transaction commits.
CREATE OR REPLACE FUNCTION notify_message_finished() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('message_finished', NEW.uid);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER message_finished_notify
  AFTER UPDATE OF status ON messages
  FOR EACH ROW
  WHEN (NEW.status IN ('completed', 'error') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION notify_message_finished();
