-- A request also becomes final as `disabled` (a proposal rejected or expired): long polls of
-- get-request-status are told of it like of `completed` and `error`.
DROP TRIGGER IF EXISTS calendar_request_finished_notify ON calendar_requests;
--> statement-breakpoint
CREATE TRIGGER calendar_request_finished_notify
  AFTER UPDATE OF status ON calendar_requests
  FOR EACH ROW
  WHEN (NEW.status IN ('completed', 'error', 'disabled') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION notify_calendar_request_finished();
