-- The change feed's one state row (shared/infra/db/schema/changes.ts): head and pruned-through positions.
INSERT INTO change_feed (id, head, pruned_through) VALUES (1, 0, 0) ON CONFLICT (id) DO NOTHING;
