import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../shared/infra/db/client.js';
import postgres from 'postgres';
import { isDatabaseUnavailable } from '../../shared/infra/db/unavailable.js';
import { migrateDatabase, migrateWhenReachable } from '../../shared/infra/db/migrate.js';
import { createLogger } from '../../shared/infra/logger.js';
import { redisRateLimiter, withLocalFallback } from '../../shared/infra/ratelimit/rate-limiter.js';
import { adminDatabaseUrl } from '../support/env.js';
import { useWorld } from '../support/world.js';
import { freePort } from './ports.js';

/*
 * Regression tests of the behaviour the fault suite (`npm run test:faults`) depends on, small
 * enough to run with `npm test`; the database ones fail without the fixes the suite led to.
 */

const w = useWorld();
let db: Database;
beforeAll(async () => {
  // The crash guards are tested on a client that does not run a lost transaction again.
  db = w.connect({ max: 3, retryLost: false });
  await db.sql`create table fault_probe (x int)`;
});

const codeOf = (err: any): string => String(err?.code ?? err?.cause?.code ?? err);

describe('a transaction whose connection dies', () => {
  it('rejects, does not crash the process (postgres.js ROLLBACK on a null socket), and the pool keeps working', async () => {
    let killed = 0;
    for (let i = 0; i < 20 && killed < 5; i++) {
      let reportPid: (pid: number) => void = () => {};
      const pid = new Promise<number>((r) => (reportPid = r));
      const tx = db.db.transaction(async (t) => {
        await t.execute(sql`insert into fault_probe values (${i})`);
        const [row] = await t.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
        reportPid(row?.pid ?? 0);
        await t.execute(sql`select pg_sleep(10)`);
      });
      const outcome = tx.then(() => 'committed', (err: unknown) => codeOf(err));
      // postgres.js may fail the first query on a reconnected connection with the FATAL of the
      // previous session (57P01): then the transaction never started, and we try again.
      const first = await Promise.race([pid, outcome]);
      if (typeof first === 'string') {
        expect(first).toBe('57P01');
        continue;
      }
      await w.tdb.database.sql`select pg_terminate_backend(${first})`;
      expect(await outcome).toMatch(/CONNECTION_CLOSED|57P01|ECONNRESET/);
      killed++;
    }
    expect(killed).toBe(5);
    // Without the guard the crash comes from a setImmediate after the rejection: give it the chance.
    await new Promise((r) => setTimeout(r, 300));
    // The pool still answers (a reconnected connection may first fail once with the old FATAL).
    let count: number | undefined;
    for (let i = 0; i < 5 && count === undefined; i++) {
      count = await db.sql<{ n: number }[]>`select count(*)::int as n from fault_probe`.then((r) => r[0]?.n, () => undefined);
    }
    expect(count).toBe(0);
  });

  it('rejects a query issued after its connection closed (awaiting Redis meanwhile) instead of writing it to the dead socket', async () => {
    let ran = false;
    for (let i = 0; i < 5 && !ran; i++) {
      let reportPid: (pid: number) => void = () => {};
      const pid = new Promise<number>((r) => (reportPid = r));
      let resume: () => void = () => {};
      const closed = new Promise<void>((r) => (resume = r));
      let nextQuery = 'not issued';
      const tx = db.db.transaction(async (t) => {
        const [row] = await t.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
        reportPid(row?.pid ?? 0);
        // Something other than Postgres is awaited (Redis, say) while the backend dies.
        await closed;
        nextQuery = await t.execute(sql`select 1`).then(() => 'answered', (err: unknown) => codeOf(err));
        throw new Error('the connection is gone');
      });
      const outcome = tx.then(() => 'committed', (err: unknown) => codeOf(err));
      const first = await Promise.race([pid, outcome]);
      if (typeof first === 'string') continue; // 57P01 of a reconnected connection: try again
      await w.tdb.database.sql`select pg_terminate_backend(${first})`;
      expect(await outcome).toMatch(/CONNECTION_CLOSED|57P01|ECONNRESET/);
      resume();
      // Without the guard the query's write runs from a setImmediate and throws on a null socket.
      await new Promise((r) => setTimeout(r, 300));
      expect(nextQuery).toBe('CONNECTION_CLOSED');
      ran = true;
    }
    expect(ran).toBe(true);
  });

  it('still rolls back on a live session when the callback fails for any other reason', async () => {
    let failed = '57P01';
    // (57P01: the old FATAL of a connection reconnected after the test above; the tx never ran.)
    for (let i = 0; i < 5 && failed === '57P01'; i++) {
      failed = await db.db
        .transaction(async (t) => {
          await t.execute(sql`insert into fault_probe values (42)`);
          await t.execute(sql`select 1 / 0`);
        })
        .then(() => 'committed', (err: unknown) => codeOf(err));
    }
    expect(failed).toBe('22012');
    // An error that merely looks like a lost connection (a Redis ECONNRESET inside a transaction).
    const redisLike = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const outcome = await db.db
      .transaction(async (t) => {
        await t.execute(sql`insert into fault_probe values (43)`);
        throw redisLike;
      })
      .then(() => 'committed', (err: unknown) => err);
    expect(outcome).toBe(redisLike);
    await db.db.transaction(async (t) => t.execute(sql`insert into fault_probe values (7)`));
    const rows = await db.sql<{ x: number }[]>`select x from fault_probe`;
    expect(rows.map((r) => r.x)).toEqual([7]);
  });
});

describe('a transaction whose connection is lost before COMMIT (issue 39 M2)', () => {
  it('runs again on a fresh connection and commits once', async () => {
    const retrying = w.connect({ max: 2 });
    try {
      let attempts = 0;
      let killed = false;
      let reportPid: (pid: number) => void = () => {};
      const pid = new Promise<number>((r) => (reportPid = r));
      const tx = retrying.db.transaction(async (t) => {
        attempts++;
        await t.execute(sql`insert into fault_probe values (500)`);
        const [row] = await t.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
        if (!killed) {
          reportPid(row?.pid ?? 0);
          await t.execute(sql`select pg_sleep(10)`);
        }
        return 'done';
      });
      const backend = await pid;
      killed = true;
      await w.tdb.database.sql`select pg_terminate_backend(${backend})`;
      expect(await tx).toBe('done');
      expect(attempts).toBeGreaterThanOrEqual(2);
      const rows = await db.sql<{ n: number }[]>`select count(*)::int as n from fault_probe where x = 500`;
      expect(rows[0]?.n).toBe(1);
    } finally {
      await db.sql`delete from fault_probe where x = 500`;
      await retrying.close();
    }
  });
});

describe('a transaction whose connection is lost in its COMMIT (issue 39 M2; the id read in the same write, issue 37)', () => {
  it('is settled by its id: aborted at COMMIT, it runs again and commits once', async () => {
    const retrying = w.connect({ max: 2 });
    // A deferred trigger that sleeps in the first COMMIT only (a sequence does not roll back).
    await db.sql.unsafe(`
      create sequence commit_probe_seq;
      create table commit_probe (x int);
      create function commit_probe_sleep() returns trigger language plpgsql as $$
      begin
        if nextval('commit_probe_seq') = 1 then perform pg_sleep(10); end if;
        return null;
      end $$;
      create constraint trigger commit_probe_sleep after insert on commit_probe
        deferrable initially deferred for each row execute function commit_probe_sleep();`);
    try {
      let attempts = 0;
      const tx = retrying.db.transaction(async (t) => {
        attempts++;
        await t.execute(sql`insert into commit_probe values (600)`);
        return 'done';
      });
      let sleeping: number | undefined;
      for (let i = 0; i < 200 && sleeping === undefined; i++) {
        const [row] = await db.sql<{ pid: number }[]>`select pid from pg_stat_activity where wait_event = 'PgSleep' and query ilike 'commit%'`;
        sleeping = row?.pid;
        if (sleeping === undefined) await new Promise((r) => setTimeout(r, 25));
      }
      expect(sleeping, 'the first COMMIT sleeps in the trigger').toBeDefined();
      await w.tdb.database.sql`select pg_terminate_backend(${sleeping ?? 0})`;
      expect(await tx).toBe('done');
      expect(attempts).toBe(2);
      const rows = await db.sql<{ n: number }[]>`select count(*)::int as n from commit_probe where x = 600`;
      expect(rows[0]?.n).toBe(1);
    } finally {
      await db.sql.unsafe('drop table commit_probe; drop function commit_probe_sleep(); drop sequence commit_probe_seq');
      await retrying.close();
    }
  });
});

describe('the hardened client', () => {
  it('still runs a list of queries returned by a transaction callback (postgres.js array form)', async () => {
    const answers = await db.sql.begin((t) => [t`insert into fault_probe values (901)`, t`insert into fault_probe values (902)`, t`select 3 as n`]);
    expect(answers).toHaveLength(3);
    const rows = await db.sql<{ x: number }[]>`select x from fault_probe where x > 900 order by x`;
    expect(rows.map((r) => r.x)).toEqual([901, 902]);
    await db.sql`delete from fault_probe where x > 900`;
  });
});

describe('a migration whose connection dies in its transaction', () => {
  it('rejects as "database unavailable" (no crash, no wait for a reconnect), and the next attempt migrates', async () => {
    const blank = await w.database({ blank: true });
    const name = blank.name;
    const admin = postgres(adminDatabaseUrl, { max: 1, onnotice: () => {} });
    const blocker = postgres(blank.url, { max: 1, onnotice: () => {} });
    try {
      // The first statement of the first migration creates this sequence: an open transaction that
      // created it too makes the migration's transaction wait there, where it is killed.
      let release: () => void = () => {};
      const held = new Promise<void>((r) => (release = r));
      const blocking = blocker.begin(async (t) => {
        await t`create sequence calendar_request_seq`;
        await held;
        throw new Error('roll back');
      }).catch(() => {});
      const migrating = migrateDatabase(blank.url).then(() => 'migrated', (err: unknown) => err);
      let waiting: number | undefined;
      for (let i = 0; i < 200 && waiting === undefined; i++) {
        const [row] = await admin<{ pid: number }[]>`
          select pid from pg_stat_activity where datname = ${name} and wait_event_type = 'Lock' and query ilike 'create sequence%'`;
        waiting = row?.pid;
        if (waiting === undefined) await new Promise((r) => setTimeout(r, 50));
      }
      expect(waiting, 'the migration waits in its transaction').toBeDefined();
      await admin`select pg_terminate_backend(${waiting ?? 0})`;
      // Unbounded before: postgres.js crashed the process (ROLLBACK on a null socket), or the
      // unlock spent connect_timeout (30 s) on the dead connection.
      const outcome = await Promise.race([migrating, new Promise((r) => setTimeout(() => r('still waiting after 15 s'), 15_000))]);
      expect(isDatabaseUnavailable(outcome), String(outcome)).toBe(true);
      release();
      await blocking;
      await migrateDatabase(blank.url);
      const [tables] = await blocker<{ n: number }[]>`select count(*)::int as n from information_schema.tables where table_name = 'calendar_requests'`;
      expect(tables?.n).toBe(1);
    } finally {
      await blocker.end({ timeout: 1 });
      await admin.end();
      await blank.drop();
    }
  }, 60_000);
});

describe('while Postgres cannot be reached', () => {
  it('keeps failing fast instead of backing off towards 20 s between reconnects', async () => {
    const dead = connectDatabase(`postgres://postgres@127.0.0.1:${await freePort()}/none`, { max: 2 });
    try {
      const took: number[] = [];
      for (let i = 0; i < 12; i++) {
        const started = Date.now();
        expect(await dead.sql`select 1`.then(() => 'ok', (err: unknown) => codeOf(err))).toBe('ECONNREFUSED');
        took.push(Date.now() - started);
      }
      // postgres.js' own backoff would make these wait 10-20 s each by now.
      expect(Math.max(...took.slice(-4))).toBeLessThan(1500);
    } finally {
      await dead.sql.end({ timeout: 1 });
    }
  }, 30_000);

  it('waits for it at start (bounded), but not for any other failure', async () => {
    const log = createLogger('silent');
    const started = Date.now();
    const unreachable = await migrateWhenReachable(`postgres://postgres@127.0.0.1:${await freePort()}/none`, log, 700).then(
      () => 'migrated',
      (err: unknown) => codeOf(err),
    );
    expect(unreachable).toBe('ECONNREFUSED');
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);

    const u = new URL(adminDatabaseUrl);
    u.pathname = '/pops_database_that_does_not_exist';
    const quick = Date.now();
    expect(await migrateWhenReachable(u.toString(), log, 10_000).then(() => 'migrated', (err: unknown) => codeOf(err))).toBe('3D000');
    expect(Date.now() - quick).toBeLessThan(2000);
  });
});

describe('the Redis rate limiter', () => {
  it('lets a request through uncounted, within a fraction of a second, while Redis cannot be reached', async () => {
    // Built as bootstrap builds the limiter's own client.
    const redis = new Redis(`redis://127.0.0.1:${await freePort()}`, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 });
    redis.on('error', () => {});
    const failures: unknown[] = [];
    try {
      const limiter = withLocalFallback(redisRateLimiter(redis, 5, '{rl-test}'), 5, { onError: (err) => failures.push(err) });
      const started = Date.now();
      const r = await limiter.hit('token');
      expect(Date.now() - started).toBeLessThan(1000);
      expect(r.allowed).toBe(true);
      expect(failures).toHaveLength(1);
    } finally {
      redis.disconnect();
    }
  });
});
