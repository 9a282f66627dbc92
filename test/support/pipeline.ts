import { expect } from 'vitest';
import { localDate } from '../../shared/infra/time.js';
import { isFinalStatus } from '../../shared/platform/requests/index.js';
import type { Runtime } from '../../shared/app/runtime.js';
import { startWorker, type RunningWorker } from '../../worker/worker.js';
import { createTestRuntime, startTestApi, testConfig, type TestApi } from './api.js';
import type { TestDatabase } from './db.js';
import { connectRedis } from '../../shared/infra/queue/connection.js';
import { redisRateLimiter } from '../../shared/infra/ratelimit/rate-limiter.js';
import { testClusterQueueConnection, testQueueConnection, type TestQueue } from './queue.js';
import { startRedisCluster, type TestRedisCluster } from './redis-cluster.js';

/** Settings that make retries, stall detection and the re-enqueuer quick enough for a test. */
export const fastQueueEnv = {
  JOB_ATTEMPTS: '3',
  JOB_BACKOFF_MS: '50',
  JOB_LOCK_MS: '2000',
  JOB_STALLED_INTERVAL_MS: '1000',
  REENQUEUE_INTERVAL_MS: '300',
  REENQUEUE_AFTER_MS: '500',
  WORKER_CONCURRENCY: '4',
};

export interface Pipeline {
  api: TestApi;
  queue: TestQueue;
  ctx: Runtime;
  /** The file's own Redis Cluster, on the 'cluster' kind. */
  cluster?: TestRedisCluster;
  startWorkers(n: number, env?: Record<string, string>): Promise<RunningWorker[]>;
  /** Closes every worker started so far (they finish their jobs in flight). */
  stopWorkers(): Promise<void>;
  close(): Promise<void>;
}

export type PipelineKind = 'redis' | 'postgres' | 'cluster';

/**
 * API + real queue (Redis with a prefix of its own, a 3-node Redis Cluster of the file's own, or the
 * Postgres backend) + workers on demand. On the cluster the rate limiter uses it too, connected the
 * way the service connects (REDIS_CLUSTER_NODES).
 */
export async function startPipeline(tdb: TestDatabase, kind: PipelineKind, givenEnv: Record<string, string> = {}): Promise<Pipeline> {
  const cluster = kind === 'cluster' ? await startRedisCluster() : undefined;
  const env = { ...fastQueueEnv, ...(cluster ? { REDIS_CLUSTER_NODES: cluster.nodesEnv, QUEUE_PREFIX: `{${tdb.name}}` } : {}), ...givenEnv };
  const config = testConfig(env);
  const queue = kind === 'cluster' ? testClusterQueueConnection(config) : testQueueConnection(tdb, kind);
  const limiterRedis = cluster ? connectRedis(config, 'fail-fast') : undefined;
  const api = await startTestApi(tdb, {
    env,
    queue: queue.conn,
    ...(limiterRedis ? { rateLimiter: redisRateLimiter(limiterRedis, config.rateLimit.perMinute, config.queue.prefix) } : {}),
  });
  const workers: RunningWorker[] = [];
  /** Runtimes of workers started with settings of their own (closed with the pipeline). */
  const workerRuntimes: Runtime[] = [];
  return {
    api,
    queue,
    ctx: api.ctx,
    ...(cluster ? { cluster } : {}),
    async startWorkers(n, wenv) {
      // Workers share the API's runtime unless they need other settings: then a runtime of their
      // own over the same database and queue, from the same composition root.
      let ctx: Runtime = api.ctx;
      if (wenv) {
        ctx = await createTestRuntime(tdb, { env: { ...env, ...wenv }, logger: api.ctx.logger, queue: queue.conn, rateLimiter: api.ctx.rateLimiter });
        workerRuntimes.push(ctx);
      }
      // Each worker is recorded as soon as it runs, so that when another of the batch fails to
      // start (Postgres out of connections) stopWorkers/close still stop it instead of leaving it
      // to take the next test's jobs.
      return Promise.all(
        Array.from({ length: n }, async () => {
          const started = await startWorker(ctx, queue.conn);
          workers.push(started);
          return started;
        }),
      );
    },
    async stopWorkers() {
      await Promise.all(workers.splice(0).map((w) => w.close()));
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all(workerRuntimes.map((r) => r.close()));
      await api.close();
      await queue.cleanup();
      limiterRedis?.disconnect();
      await cluster?.stop();
    },
  };
}

/** Polls the status endpoint until every uid is final; returns the final statuses. */
export async function waitForFinal(api: TestApi, token: string, uids: string[], timeoutMs = 60_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all: any[] = [];
    for (let i = 0; i < uids.length; i += 100) {
      const res = await api.get(`/api/v1/get-request-status?request_uids=${uids.slice(i, i + 100).join(',')}`, token);
      expect(res.status).toBe(200);
      all.push(...res.body.data);
    }
    if (all.every((s) => isFinalStatus(s))) return all;
    if (Date.now() > deadline) {
      const pending = all.filter((s) => !isFinalStatus(s));
      throw new Error(`${pending.length} requests still not final: ${JSON.stringify(pending.slice(0, 3))}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `n` consecutive dates starting `offset` days from today (UTC), as YYYY-MM-DD. */
/** `YYYY-MM-DD`, `n` days after today in `zone` (UTC: the zone of the test properties). */
export function dayFromToday(n: number, zone = 'UTC'): string {
  return new Date(Date.parse(`${localDate(zone)}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export function futureDates(n: number, offset = 2): string[] {
  const start = Date.now() + offset * 86_400_000;
  return Array.from({ length: n }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
}
