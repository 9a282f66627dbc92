import { describe, expect, it } from 'vitest';
import { analyzeStaleTables, vacuumBusyTables } from '../../shared/domain/retention/index.js';
import { useWorld } from '../support/world.js';

/*
 * Issue 37: every webhook delivery leaves a dead row version in the lease, event, attempt and
 * change tables, and with Postgres's autovacuum off (or behind) the delivery's lookups walked
 * more and more of them. The scheduled `vacuum-busy-tables` job vacuums a busy table once enough
 * of it is dead, and leaves the others alone.
 */
const t = useWorld();

describe('vacuum-busy-tables', () => {
  it('vacuums a busy table once enough of its rows are dead, and only then', async () => {
    // One connection: its statistics are flushed before the job reads them.
    const db = t.connect({ max: 1 });
    // Where Postgres's autovacuum runs, it must not take the dead rows away between churn and job.
    await db.sql`alter table webhook_leases set (autovacuum_enabled = false)`;
    const lastVacuum = async () =>
      (await db.sql<{ at: Date | null }[]>`select last_vacuum as at from pg_stat_user_tables where relname = 'webhook_leases' and schemaname = current_schema()`)[0]?.at ?? null;
    const churn = async (n: number) => {
      await db.sql`insert into webhook_leases (app_uid, object_key, holder, until) select 'app_v', 'o' || i, 'h', now() from generate_series(1, ${n}::int) i`;
      await db.sql`delete from webhook_leases where app_uid = 'app_v'`;
      await db.sql`select pg_stat_force_next_flush()`;
      // The flush happens once the session is idle: wait until the counts show the deletes.
      for (let i = 0; i < 50; i++) {
        const [row] = await db.sql<{ dead: number }[]>`select n_dead_tup::int as dead from pg_stat_user_tables where relname = 'webhook_leases' and schemaname = current_schema()`;
        if ((row?.dead ?? 0) >= n) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the statistics never showed the dead rows');
    };
    await churn(50);
    expect(await vacuumBusyTables(db.db, 100, 0.05)).not.toContain('webhook_leases');
    expect(await lastVacuum()).toBeNull();
    await churn(200);
    expect(await vacuumBusyTables(db.db, 100, 0.05)).toContain('webhook_leases');
    expect(await lastVacuum()).not.toBeNull();
  });
});

describe('vacuum-busy-tables: stale statistics', () => {
  it('analyzes a table once enough of it changed since its last ANALYZE, and not again within the minute', async () => {
    const db = t.connect({ max: 1 });
    await db.sql`create table analyze_probe (x int) with (autovacuum_enabled = false)`;
    const lastAnalyze = async () =>
      (await db.sql<{ at: Date | null }[]>`select last_analyze as at from pg_stat_user_tables where relname = 'analyze_probe' and schemaname = current_schema()`)[0]?.at ?? null;
    const insert = async (n: number, expectChanged: number) => {
      await db.sql`insert into analyze_probe select i from generate_series(1, ${n}::int) i`;
      await db.sql`select pg_stat_force_next_flush()`;
      for (let i = 0; i < 50; i++) {
        const [row] = await db.sql<{ n: number }[]>`select n_mod_since_analyze::int as n from pg_stat_user_tables where relname = 'analyze_probe' and schemaname = current_schema()`;
        if ((row?.n ?? 0) >= expectChanged) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the statistics never showed the inserts');
    };
    await insert(50, 50);
    expect(await analyzeStaleTables(db.db, 100, 0.2, 50)).not.toContain('analyze_probe');
    expect(await lastAnalyze()).toBeNull();
    await insert(200, 250);
    expect(await analyzeStaleTables(db.db, 100, 0.2, 50)).toContain('analyze_probe');
    expect(await lastAnalyze()).not.toBeNull();
    // The planner now knows its size (an empty table's statistics say nothing of it).
    const [cls] = await db.sql<{ n: number }[]>`select reltuples::int as n from pg_class where relname = 'analyze_probe'`;
    expect(cls?.n).toBe(250);
    // Changed as much again, but analyzed less than a minute ago: left alone.
    await insert(1000, 1000);
    expect(await analyzeStaleTables(db.db, 100, 0.2, 50)).not.toContain('analyze_probe');
  });
});
