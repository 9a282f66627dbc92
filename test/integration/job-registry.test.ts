import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../shared/app/runtime.js';
import { openQueue } from '../../shared/infra/queue/producer.js';
import { jobRegistry, registeredJobs } from '../../shared/infra/queue/registry.js';
import { jobHandlers } from '../../worker/handlers.js';
import type { JobHandlers } from '../../worker/job-handler.js';
import type { RunningWorker } from '../../worker/worker.js';
import { testConfig } from '../support/api.js';
import { fastQueueEnv } from '../support/pipeline.js';
import type { TestQueue } from '../support/queue.js';
import { wipeQueueState } from '../support/queue-wipe.js';
import { useWorld } from '../support/world.js';

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(['redis', 'postgres'] as const)('the job registry on the %s backend', (kind) => {
  const t = useWorld();
  let queue: TestQueue;
  const config = testConfig(fastQueueEnv);
  const registry = jobRegistry(config);
  let ctx: Runtime;
  const running: RunningWorker[] = [];

  beforeAll(async () => {
    queue = t.queue(kind);
    ctx = await t.runtime({ env: { ...fastQueueEnv, SCHEDULE_CHECK_MS: '300' }, queue: queue.conn });
  });

  it('refuses to start a worker when a registered job has no handler', async () => {
    const handlers = { ...jobHandlers(ctx), 'prune-rate-limit-windows': undefined } as unknown as JobHandlers;
    await expect(t.startWorker(ctx, queue.conn, handlers)).rejects.toThrow(/No handler registered for job prune-rate-limit-windows/);
  });

  it('declares the maintenance prunes as job schedulers in the queue and runs each at once when workers start', async () => {
    const db = t.tdb.database.db;
    const now = Date.now();
    await db.execute(sql`
      insert into idempotency_keys (token_uid, key, company_uid, body_hash, status, response, created_at)
      values ('tok_1', 'old', 'co_1', 'h', 200, '{}', now() - interval '25 hours'), ('tok_1', 'fresh', 'co_1', 'h', 200, '{}', now())`);
    // A key whose allowance is whole again (TAT passed) and one still in use.
    await db.execute(sql`insert into rate_limit_buckets (key, tat) values ('tok_1', ${now - 5 * 60_000}), ('tok_2', ${now + 10 * 60_000})`);
    // Two workers at once, as two processes starting together: both upsert the same schedulers.
    running.push(...(await Promise.all([t.startWorker(ctx, queue.conn), t.startWorker(ctx, queue.conn)])));

    const keys = async () => (await db.execute<{ key: string }>(sql`select key from idempotency_keys order by key`)).map((r) => r.key);
    const windows = async () => (await db.execute<{ n: number }>(sql`select count(*)::int as n from rate_limit_buckets`))[0]?.n;
    await until('the prunes to run', async () => (await keys()).length === 1 && (await windows()) === 1);
    expect(await keys()).toEqual(['fresh']);

    const maintenance = openQueue(queue.conn, 'maintenance');
    try {
      const schedulers = await maintenance.getJobSchedulers();
      const scheduled = registeredJobs(registry).filter((j) => j.every !== undefined);
      expect(schedulers.map((s) => [s.key, s.every]).sort()).toEqual(scheduled.map((j) => [j.name, j.every]).sort());
      expect(scheduled.map((j) => j.name).sort()).toEqual(['expire-proposals', 'expire-reservation-requests', 'fan-out-webhook-events', 'notify-waiting', 'prune-changes', 'prune-finished-requests', 'prune-idempotency-keys', 'prune-rate-limit-windows', 'prune-webhook-events', 'vacuum-busy-tables']);
    } finally {
      await maintenance.close();
    }
  });

  it('declares the schedulers again when the queue loses its state under running workers, and each scheduled job runs again', async () => {
    const db = t.tdb.database.db;
    if (running.length === 0) running.push(await t.startWorker(ctx, queue.conn));
    const maintenance = openQueue(queue.conn, 'maintenance');
    try {
      const scheduled = registeredJobs(registry).filter((j) => j.every !== undefined).map((j) => j.name);
      await until('the schedulers', async () => (await maintenance.getJobSchedulers()).length === scheduled.length);
      await until('the runs of the start to end', async () => {
        const c = await maintenance.getJobCounts('waiting', 'active');
        return (c.waiting ?? 0) + (c.active ?? 0) === 0;
      });
      // Work for a prune whose next run is 15 minutes away: only a run the wipe brings back does it.
      await db.execute(sql`
        insert into idempotency_keys (token_uid, key, company_uid, body_hash, status, response, created_at)
        values ('tok_2', 'stale', 'co_1', 'h', 200, '{}', now() - interval '25 hours')`);
      await wipeQueueState(kind, t.tdb);
      const wiped = Date.now();
      await until('the schedulers declared again', async () => (await maintenance.getJobSchedulers()).length === scheduled.length);
      const stale = async () => (await db.execute(sql`select 1 from idempotency_keys where key = 'stale'`)).length;
      await until('prune-idempotency-keys to run again', async () => (await stale()) === 0);
      expect((await maintenance.getJobSchedulers()).map((s) => s.key).sort()).toEqual([...scheduled].sort());
      console.log(`${kind}: queue state wiped -> every scheduler back and prune-idempotency-keys run in ${Date.now() - wiped} ms`);
    } finally {
      await maintenance.close();
    }
  });

  it('starts one BullMQ worker per registered queue, each with its own concurrency', () => {
    const [first] = running;
    expect(first?.workers.map((w) => [w.name, w.concurrency])).toEqual([
      ['calendar', Number(fastQueueEnv.WORKER_CONCURRENCY)],
      ['maintenance', 2],
      ['webhooks', config.webhooks.concurrency],
      ['messages', config.messaging.concurrency],
    ]);
    expect(first?.queues.map((q) => q.name)).toEqual(['calendar', 'maintenance', 'webhooks', 'messages']);
  });
});
