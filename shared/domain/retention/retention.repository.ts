import { sql } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';

/**
 * Deletes at most `batchRows` finished (completed, error or disabled) calendar requests that finished more
 * than `olderThanDays` ago, oldest first; returns how many went. Live requests (queued,
 * processing) are never candidates. One short statement over the partial index of finished
 * requests; rows locked elsewhere are skipped, never waited for.
 *
 * Not by company, unlike the other repositories: retention is the same rule for every tenant and
 * reads no tenant data back.
 */
export async function deleteFinishedRequests(db: Db, olderThanDays: number, batchRows: number): Promise<number> {
  const r = await db.execute(sql`
    delete from calendar_requests where uid in (
      select uid from calendar_requests
       where status in ('completed', 'error', 'disabled')
         and finished_dttm < now() - make_interval(secs => ${olderThanDays * 86_400})
       order by finished_dttm limit ${batchRows}
         for update skip locked)`);
  return r.count;
}

/**
 * Deletes at most `batchRows` webhook events that are settled (delivered or failed) and were
 * created more than `olderThanDays` ago, with their delivery attempts, in one statement; pending
 * events are never candidates (they settle within WEBHOOK_MAX_AGE_MS). Returns the events deleted.
 */
export async function deleteSettledWebhookEvents(db: Db, olderThanDays: number, batchRows: number): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`
    with gone as (
      delete from webhook_events where uid in (
        select uid from webhook_events
         where status in ('delivered', 'failed')
           and created_at < now() - make_interval(secs => ${olderThanDays * 86_400})
         order by created_at limit ${batchRows}
           for update skip locked)
      returning uid),
    attempts as (delete from webhook_deliveries where event_uid in (select uid from gone))
    select count(*)::int as n from gone`);
  return row?.n ?? 0;
}

/**
 * Makes the space of deleted rows reusable at once: a plain VACUUM (no exclusive lock: reads and
 * writes go on; SKIP_LOCKED: skipped while another vacuum holds the table). Without it a
 * server whose autovacuum is off or behind grows calendar_requests by the TOASTed days of every
 * request it ever took (8 MiB/min at 5,000 days/s in `npm run soak`), however many rows are
 * pruned. The table names are fixed here, never input.
 */
export async function vacuumTable(db: Db, table: 'calendar_requests' | 'idempotency_keys' | 'webhook_events' | 'webhook_deliveries'): Promise<void> {
  await db.execute(sql.raw(`vacuum (skip_locked) ${table}`));
}

/**
 * The tables every webhook delivery rewrites a row of (the object's lease taken and dropped, the
 * event's status): each leaves a dead version per event, in every index (no HOT update: the status
 * is in the pending indexes' predicates). Not `changes` (its feed position is stamped the same
 * way): vacuuming it every few seconds cost the calendar bench's feed-on run about a tenth
 * (feed on / off 0.87 and 0.88 with it, 1.02 without), and the webhook runs were as good without.
 */
export const BUSY_TABLES = ['webhook_leases', 'webhook_events', 'webhook_deliveries'] as const;
export type BusyTable = (typeof BUSY_TABLES)[number];

/**
 * Of BUSY_TABLES, those with at least `minDead` dead row versions and at least `fraction` of their
 * live rows dead (the statistics' counts, pg_stat_user_tables), each then vacuumed (skip_locked).
 * Answers the tables vacuumed.
 */
export async function vacuumBusyTables(db: Db, minDead: number, fraction: number): Promise<BusyTable[]> {
  const rows = await db.execute<{ relname: BusyTable }>(sql`
    select relname from pg_stat_user_tables
     where schemaname = current_schema() and relname = any(${sql.raw(`array['${BUSY_TABLES.join("','")}']`)})
       and n_dead_tup >= greatest(${minDead}::int, ${fraction}::float8 * n_live_tup)
     order by relname`);
  const tables = rows.map((r) => r.relname).filter((t) => (BUSY_TABLES as readonly string[]).includes(t));
  for (const t of tables) await db.execute(sql.raw(`vacuum (skip_locked) ${t}`));
  return tables;
}

/** A table's statistics are left to Postgres's autovacuum for this long after any ANALYZE of it. */
export const ANALYZE_MIN_INTERVAL_SECONDS = 60;

/**
 * The service's tables whose planner statistics are stale, each then analyzed (skip_locked): at
 * least `minChanged` rows inserted, updated or deleted since its last ANALYZE and at least
 * `fraction` of its live rows, and no ANALYZE of it (this job's or autovacuum's) in the last
 * ANALYZE_MIN_INTERVAL_SECONDS. At most `limit` tables a run, the most changed first. Answers the
 * tables analyzed.
 *
 * Why (issue 37): where autovacuum is off, nothing else ever analyzes, and a table created empty
 * keeps an empty table's statistics however much it grows. The generic plans of the service's
 * prepared statements then scan it: messages' grouped "sent" update read the whole table (0.67-0.80
 * ms a statement at bench size, a sequential scan), and grouped claims scanned the same way. Where
 * autovacuum runs it analyzes at 10% changed, before this job's default 20%, so the job stays idle.
 */
export async function analyzeStaleTables(db: Db, minChanged: number, fraction: number, limit = 5): Promise<string[]> {
  const rows = await db.execute<{ relname: string; ident: string }>(sql`
    select relname, quote_ident(schemaname) || '.' || quote_ident(relname) as ident from pg_stat_user_tables
     where schemaname = current_schema()
       and n_mod_since_analyze >= greatest(${minChanged}::int, ${fraction}::float8 * n_live_tup)
       and coalesce(greatest(last_analyze, last_autoanalyze), '-infinity') < now() - make_interval(secs => ${ANALYZE_MIN_INTERVAL_SECONDS})
     order by n_mod_since_analyze desc
     limit ${limit}`);
  // quote_ident: the names come from the catalogue, and are quoted as identifiers all the same.
  for (const r of rows) await db.execute(sql.raw(`analyze (skip_locked) ${r.ident}`));
  return rows.map((r) => r.relname);
}

/** The repository its service is given by the composition root (shared/app/services.ts). */
export const retentionRepository = { deleteFinishedRequests, deleteSettledWebhookEvents, vacuumTable, vacuumBusyTables, analyzeStaleTables };
export type RetentionRepository = typeof retentionRepository;
