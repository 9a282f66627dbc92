import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendarJobs, type CalendarJobs } from '../../shared/infra/queue/calendar-jobs.js';
import { redisQueueConnection } from '../../shared/infra/queue/connection.js';
import { jobRegistry } from '../../shared/infra/queue/registry.js';
import { redisRateLimiter } from '../../shared/infra/ratelimit/rate-limiter.js';
import { testConfig, type TestApi } from '../support/api.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { futureDates } from '../support/pipeline.js';
import { ownRedisServer } from '../support/redis-server.js';
import { sample } from '../support/ops.fixture.js';
import { useWorld } from '../support/world.js';

/*
 * A Redis that is full under noeviction (it answers reads, refuses every write with OOM), on a
 * redis-server of this test's own: the queue shows degraded, and the rate limit still holds.
 */

const t = useWorld();
let server: Awaited<ReturnType<typeof ownRedisServer>>;
let queueRedis: Redis;
let limiterRedis: Redis;
let jobs: CalendarJobs;
let api: TestApi;
let token: string;
let property: string;
// The calendar's enqueue after commit: the job path (CALENDAR_PUMP off; the pump queues no calendar job).
const env = { RATE_LIMIT_PER_MINUTE: '3', CALENDAR_PUMP: 'off' };

beforeAll(async () => {
  server = await ownRedisServer({ maxmemory: '4mb' });
  queueRedis = new Redis(server.url, { maxRetriesPerRequest: null });
  limiterRedis = new Redis(server.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  for (const r of [queueRedis, limiterRedis]) r.on('error', () => {});
  jobs = createCalendarJobs(redisQueueConnection(queueRedis, '{oom}'), jobRegistry(testConfig(env)));
  await jobs.ping();
  api = await t.startApi({ env, rateLimiter: redisRateLimiter(limiterRedis, 3, '{oom}'), jobs: { calendar: jobs } });
  const db = t.tdb.database.db;
  const company = await createCompany(db);
  property = await createProperty(db, company);
  token = (await createToken(db, company, ['calendar-control'])).token;
  await server.fill();
});
afterAll(async () => {
  await api?.close();
  await jobs?.close();
  queueRedis?.disconnect();
  limiterRedis?.disconnect();
  await server?.stop();
});

describe('a full Redis (noeviction, OOM on every write)', () => {
  it('accepts into Postgres, and /readyz and a metric report the queue degraded while enqueues fail', async () => {
    const ready = await api.get('/readyz');
    expect(ready.body.data).toEqual({ status: 'ready', checks: { postgres: 'ok', queue: 'ok' } });
    const accepted = await api.post('/api/v1/set-calendar-batch', { property_uid: property, days: [{ date: futureDates(1)[0], min_stay: 2 }] }, token);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.request_uids).toHaveLength(1);
    const degraded = await api.get('/readyz');
    expect(degraded.status).toBe(200);
    expect(degraded.body.data).toEqual({ status: 'degraded', checks: { postgres: 'ok', queue: 'degraded' } });
    const metrics = await api.get('/metrics');
    expect(sample(metrics.body as string, 'pops_queue_enqueue_failing', { queue: jobs.queue.name })).toBe(1);
  });

  it('still limits each token, in this process, while Redis cannot count', async () => {
    const other = (await createToken(t.tdb.database.db, (await createCompany(t.tdb.database.db)), ['calendar-control'])).token;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.get(`/api/v1/get-calendar-data?property_uid=x&from_date=2030-01-01&to_date=2030-01-02`, other)).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
  });
});
