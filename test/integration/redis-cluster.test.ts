import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import { ConfigError, loadConfig } from '../../shared/infra/config.js';
import { connectRedis } from '../../shared/infra/queue/connection.js';
import { redisRateLimiter } from '../../shared/infra/ratelimit/rate-limiter.js';
import { testConfig } from '../support/api.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/*
 * The service on a real 3-node Redis Cluster of this file's own (test/support/redis-cluster.ts).
 * The accept / apply / order tests run on it too, as the 'cluster' kind of calendar-pipeline and
 * calendar-order; this file holds what only a cluster has: slots and nodes.
 */
// Calendar jobs in the cluster: the job path (CALENDAR_PUMP off).
const t = useWorld({ queue: 'cluster', env: { CALENDAR_PUMP: 'off' } });
let token: string;
let propertyUid: string;
const nodeClient = (port: number) => new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1 });

beforeAll(async () => {
  const co = await createCompany(t.tdb.database.db);
  propertyUid = await createProperty(t.tdb.database.db, co);
  token = (await createToken(t.tdb.database.db, co, ['calendar-control'])).token;
});

describe('on a Redis Cluster', () => {
  it('keeps every key of the queue and of the rate limiter on the one node that holds the prefix slot', async () => {
    const cluster = t.p.cluster!;
    const res = await t.p.api.post('/api/v1/set-calendar-batch', { property_uid: propertyUid, days: futureDates(250, 3).map((date) => ({ date, min_stay: 2 })) }, token);
    expect(res.status).toBe(200);
    expect(res.body.data.request_uids).toHaveLength(3);
    const owner = await cluster.portOfSlot(t.p.ctx.config.queue.prefix);
    for (const port of cluster.ports) {
      const r = nodeClient(port);
      const keys = await r.keys('*');
      r.disconnect();
      if (port === owner) {
        expect(keys.some((k) => k.startsWith(`${t.p.ctx.config.queue.prefix}:calendar:`))).toBe(true);
        expect(keys.some((k) => k.startsWith(`${t.p.ctx.config.queue.prefix}:rl:`))).toBe(true);
      } else {
        expect(keys).toEqual([]);
      }
    }
    await t.p.startWorkers(1);
    const statuses = await waitForFinal(t.p.api, token, res.body.data.request_uids);
    expect(statuses.map((s) => s.days_applied)).toEqual([100, 100, 50]);
    await t.p.stopWorkers();
  });

  it('completes requests whose jobs were lost when the node holding the queue slot was flushed', async () => {
    const cluster = t.p.cluster!;
    const res = await t.p.api.post('/api/v1/set-calendar-batch', { property_uid: propertyUid, days: futureDates(300, 300).map((date) => ({ date, notes: 'flushed' })) }, token);
    const uids = res.body.data.request_uids as string[];
    expect(uids).toHaveLength(3);
    expect(await t.p.ctx.jobs.calendar.jobState(uids[0] as string)).toBe('waiting');
    const owner = nodeClient(await cluster.portOfSlot(t.p.ctx.config.queue.prefix));
    await owner.flushall();
    owner.disconnect();
    expect(await t.p.ctx.jobs.calendar.jobState(uids[0] as string)).toBe('unknown');
    // The requests are durable in Postgres: a worker's re-enqueuer puts them back on the queue.
    await t.p.startWorkers(1);
    const statuses = await waitForFinal(t.p.api, token, uids, 30_000);
    expect(statuses.map((s) => [s.request_status, s.days_applied])).toEqual([['completed', 100], ['completed', 100], ['completed', 100]]);
  });

  it('counts one rate-limit window across two cluster clients', async () => {
    const config = testConfig({ REDIS_CLUSTER_NODES: t.p.cluster!.nodesEnv, QUEUE_PREFIX: '{rl-test}' });
    const [a, b] = [connectRedis(config, 'fail-fast'), connectRedis(config, 'fail-fast')];
    // A fail-fast client refuses commands until it is connected.
    await Promise.all([a, b].map((c) => new Promise((r) => c.once('ready', r))));
    const one = redisRateLimiter(a, 3, config.queue.prefix);
    const two = redisRateLimiter(b, 3, config.queue.prefix);
    const results = [await one.hit('tok'), await two.hit('tok'), await one.hit('tok'), await two.hit('tok')];
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    a.disconnect();
    b.disconnect();
  });

  it('refuses a cluster set-up whose queue prefix has no hash tag, naming the key', () => {
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', QUEUE_PREFIX: 'pops' })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000', QUEUE_PREFIX: 'pops' })).toThrow(/QUEUE_PREFIX: must contain a \{hash tag\}/);
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000,nohost' })).toThrow(/REDIS_CLUSTER_NODES/);
    expect(loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7000, 10.0.0.2:7001' }).queue.redisClusterNodes).toEqual([
      { host: '127.0.0.1', port: 7000 },
      { host: '10.0.0.2', port: 7001 },
    ]);
  });
});
