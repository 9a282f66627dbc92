-- The message pump (issue 37; worker/message-pump.ts). A stored message to send wakes the workers'
-- pumps at its commit: one notification per statement that inserts one, folded by Postgres into one
-- per transaction (same channel, same empty payload). The API queues no job for it any more.
CREATE OR REPLACE FUNCTION notify_messages_queued() RETURNS trigger AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM stored WHERE status = 'queued' AND direction = 'outbound') THEN
    PERFORM pg_notify('messages_queued', '');
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER messages_queued_notify
  AFTER INSERT ON messages
  REFERENCING NEW TABLE AS stored
  FOR EACH STATEMENT
  EXECUTE FUNCTION notify_messages_queued();
--> statement-breakpoint
-- The pump's claim: messages never started and never handed to the queue, oldest first.
CREATE INDEX "messages_unsent_idx" ON "messages" USING btree ("id") WHERE status = 'queued' and started_at is null and enqueued_at is null;
