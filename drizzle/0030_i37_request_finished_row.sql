-- The notification of a calendar request that became final carries the request's status row
-- (issue 37): a waiting long poll of get-request-status answers from it, without reading the
-- request again. A row whose JSON would not fit a notification (8,000 bytes: many past-day
-- warnings) is notified by its uid alone, as before, and the long poll reads it.
CREATE OR REPLACE FUNCTION notify_calendar_request_finished() RETURNS trigger AS $$
DECLARE
  payload text;
BEGIN
  payload := json_build_object(
    'uid', NEW.uid, 'status', NEW.status, 'request_error', NEW.request_error,
    'property_uid', NEW.property_uid, 'days_total', NEW.days_total, 'days_applied', NEW.days_applied,
    'warnings', NEW.warnings, 'attempts', NEW.attempts, 'created_dttm', NEW.created_dttm,
    'started_dttm', NEW.started_dttm, 'finished_dttm', NEW.finished_dttm)::text;
  PERFORM pg_notify('calendar_request_finished', CASE WHEN octet_length(payload) < 7900 THEN payload ELSE NEW.uid END);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
