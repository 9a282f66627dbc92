-- A request's stored days (a chunk of up to 100 days, as jsonb) are compressed with lz4 where the
-- server has it (issue 37): pglz took about twice the CPU to store them (20,000 chunks of 91
-- days: 1.57-1.71 s against 0.75-0.80 s). A server built without lz4 (the embedded Postgres of
-- `npm start`) keeps pglz. Rows stored before keep the method they were stored with.
DO $$
BEGIN
  ALTER TABLE calendar_requests ALTER COLUMN days SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  RAISE NOTICE 'this server has no lz4: calendar_requests.days stays compressed with pglz';
END $$;
