import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../shared/platform/requests/index.js';
import { createCalendarJobs, type CalendarJobs } from '../../shared/infra/queue/calendar-jobs.js';
import { redisQueueConnection } from '../../shared/infra/queue/connection.js';
import { jobRegistry } from '../../shared/infra/queue/registry.js';
import { testConfig, type TestApi } from '../support/api.js';
import { testRedisUrl } from '../support/env.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { futureDates } from '../support/pipeline.js';
import { tcpProxy } from '../support/tcp-proxy.js';
import { until } from '../support/ops.fixture.js';
import { useWorld } from '../support/world.js';

/*
 * A Redis that stops answering, seen by one API through a proxy (the real Redis stays up for
 * every other test): status answers do not wait for it.
 */

const t = useWorld();
let proxy: Awaited<ReturnType<typeof tcpProxy>>;
let redis: Redis;
let jobs: CalendarJobs;
let api: TestApi;
let token: string;
let requestUid: string;

beforeAll(async () => {
  const target = new URL(testRedisUrl);
  proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
  redis = new Redis(proxy.url, { maxRetriesPerRequest: null });
  redis.on('error', () => {});
  jobs = createCalendarJobs(redisQueueConnection(redis, `{${t.tdb.name}}`), jobRegistry(testConfig()));
  api = await t.startApi({ jobs: { calendar: jobs } });
  const db = t.tdb.database.db;
  const company = await createCompany(db);
  const property = await createProperty(db, company);
  token = (await createToken(db, company, ['calendar-control'])).token;
  const day = { date: futureDates(1)[0] as string, price: null, currency: null, is_available: null, min_stay: 2, notes: null };
  [requestUid] = (await insertRequests(db, company, property, [[day]], [{}])) as [string];
});
afterAll(async () => {
  proxy?.restore();
  await jobs?.queue.obliterate({ force: true }).catch(() => {});
  await api?.close();
  await jobs?.close();
  redis?.disconnect();
  await proxy?.close();
});

const statusOf = async () => {
  const res = await api.get(`/api/v1/get-request-status?request_uid=${requestUid}`, token);
  expect(res.status).toBe(200);
  return res.body.data.request_status as string;
};

describe('get-request-status while Redis does not answer', () => {
  it('answers from the paused flag it last read, instead of waiting for Redis and forgetting it', async () => {
    await jobs.queue.pause();
    await until('the paused flag is read', async () => (await statusOf()) === 'paused');
    proxy.blackHole();
    // Every answer during the outage still says paused (a read that timed out would say queued),
    // also after background re-reads (one per second) have timed out (2 s each).
    const outageEnds = Date.now() + 4500;
    while (Date.now() < outageEnds) {
      expect(await statusOf()).toBe('paused');
      await new Promise((r) => setTimeout(r, 100));
    }
    proxy.restore();
    await jobs.queue.resume();
    await until('the flag is refreshed in the background', async () => (await statusOf()) === 'queued');
  });
});
