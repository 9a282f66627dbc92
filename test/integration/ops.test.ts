import { describe, expect, it } from 'vitest';
import { insertRequests } from '../../shared/platform/requests/index.js';
import type { CalendarJobs } from '../../shared/infra/queue/calendar-jobs.js';
import { createLogger } from '../../shared/infra/logger.js';
import { startMetricsServer } from '../../shared/infra/metrics/metrics-server.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';
import { labelValues, sample, until } from '../support/ops.fixture.js';

// Queue depth and job metrics of calendar jobs: the job path (CALENDAR_PUMP off).
const w = useWorld({ queue: 'redis', env: { HEALTH_TIMEOUT_MS: '300', CALENDAR_PUMP: 'off' }, seed: true });

const scrape = async () => {
  const res = await fetch(`${w.p.api.baseUrl}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
};
const never = () => new Promise<never>(() => {});

describe('GET /livez and GET /readyz', () => {
  it('answer without a token: live, and ready with both dependencies', async () => {
    expect(await w.p.api.get('/livez')).toMatchObject({ status: 200, body: { data: { status: 'live' } } });
    expect(await w.p.api.get('/readyz')).toMatchObject({ status: 200, body: { data: { status: 'ready', checks: { postgres: 'ok', queue: 'ok' } } } });
  });

  it('is 503 code 15 naming Postgres when it cannot be reached, while /livez stays 200', async () => {
    const deadDb = w.deadDatabase();
    const api = await w.startApi({ env: { HEALTH_TIMEOUT_MS: '300' }, database: deadDb, jobs: { calendar: w.p.api.ctx.jobs.calendar } });
    try {
      const res = await api.get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: { code: 15, message: 'Not ready: postgres', details: [{ path: 'postgres', message: 'unreachable' }] } });
      expect((await api.get('/livez')).status).toBe(200);
    } finally {
      await api.close();
      await deadDb.close();
    }
  });

  it('is 503 within HEALTH_TIMEOUT_MS when the queue does not answer', async () => {
    const hanging: CalendarJobs = { ...w.p.api.ctx.jobs.calendar, ping: never };
    const api = await w.startApi({ env: { HEALTH_TIMEOUT_MS: '300' }, jobs: { calendar: hanging } });
    try {
      const started = Date.now();
      const res = await api.get('/readyz');
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ code: 15, details: [{ path: 'queue', message: 'timeout' }] });
    } finally {
      await api.close();
    }
  });
});

describe('GET /metrics', () => {
  it('counts answers by route template, never by raw path, with a latency histogram', async () => {
    await w.p.api.get(`/api/v1/get-request-status?request_uid=rq_secret_uid_1`, w.token);
    await w.p.api.get(`/api/v1/bookings/bk_some_id_42`, w.token);
    await w.p.api.get(`/no/such/${w.property}`);
    const text = await scrape();
    expect(sample(text, 'pops_http_requests_total', { route: '/api/v1/get-request-status', method: 'GET', status: '404' })).toBe(1);
    expect(sample(text, 'pops_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).toBe(2);
    expect(sample(text, 'pops_http_request_duration_seconds_count', { route: '/api/v1/get-request-status', method: 'GET', status: '404' })).toBe(1);
    const routes = labelValues(text, 'pops_http_', 'route');
    const documented = new Set(Object.keys((await w.p.api.get('/openapi.json')).body.paths));
    expect([...routes].filter((r) => !documented.has(r) && r !== 'unmatched')).toEqual([]);
    for (const id of ['rq_secret_uid_1', 'bk_some_id_42', w.property, w.company]) expect(text).not.toContain(id);
  });

  it('reads the queue depth at scrape time, and reports the queue down within the timeout', async () => {
    const dates = futureDates(3, 40);
    const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: w.property, days: dates.map((date) => ({ date, min_stay: 3 })) }, w.token);
    expect(res.status).toBe(200);
    const text = await scrape();
    expect(sample(text, 'pops_queue_jobs', { queue: 'calendar', state: 'waiting' })).toBe(1);
    for (const state of ['active', 'delayed', 'failed']) expect(sample(text, 'pops_queue_jobs', { queue: 'calendar', state })).toBe(0);
    expect(sample(text, 'pops_queue_up', { queue: 'calendar' })).toBe(1);

    const stuckQueue = { ...w.p.api.ctx.jobs.calendar.queue, name: 'calendar', getJobCounts: never } as unknown as CalendarJobs['queue'];
    const api = await w.startApi({ env: { HEALTH_TIMEOUT_MS: '300' }, jobs: { calendar: { ...w.p.api.ctx.jobs.calendar, queue: stuckQueue } } });
    try {
      const started = Date.now();
      const down = await fetch(`${api.baseUrl}/metrics`);
      expect(down.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(sample(await down.text(), 'pops_queue_up', { queue: 'calendar' })).toBe(0);
    } finally {
      await api.close();
    }
    await w.p.startWorkers(1);
    await waitForFinal(w.p.api, w.token, res.body.data.request_uids);
  });

  it('counts days accepted, skipped by reason, applied, requests by final status, jobs and re-enqueues', async () => {
    const before = await scrape();
    const delta = (text: string, name: string, labels: Record<string, string> = {}) => (sample(text, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    const [d1, d2, d3, d4, d5] = futureDates(5, 60) as [string, string, string, string, string];
    const body = {
      property_uid: w.property,
      days: [
        { date: '2020-02-02', price: 10, currency: 'EUR' },
        { date: d1, price: 10 },
        { date: d2 },
        { date: d3, price: 10, currency: 'EUR' },
        { date: d4, notes: 'a' },
        { date: d5, is_available: 0 },
      ],
    };
    const accepted = await w.p.api.post('/api/v1/set-calendar-batch', body, w.token, { 'Idempotency-Key': 'metrics-1' });
    expect(accepted.status).toBe(200);
    // A replay answers again but accepts nothing new.
    expect((await w.p.api.post('/api/v1/set-calendar-batch', body, w.token, { 'Idempotency-Key': 'metrics-1' })).status).toBe(200);

    // Requests stored without a job (as when the queue was down at accept time): the re-enqueuer
    // finds them. One holds a day that is past by the time it is applied; one cannot be applied
    // (a price too large for the column) and ends in error after its attempts.
    const db = w.tdb.database.db;
    const stranded = await insertRequests(db, w.company, w.property, [
      [{ date: '2020-03-03', price: null, currency: null, is_available: false, min_stay: null, notes: null }, { date: d5, price: null, currency: null, is_available: null, min_stay: 4, notes: null }],
      [{ date: d1, price: 1e15, currency: 'EUR', is_available: null, min_stay: null, notes: null }],
    ], [{}, {}]);

    await waitForFinal(w.p.api, w.token, [...accepted.body.data.request_uids, ...stranded], 30_000);
    let text = '';
    await until('the finished requests to be counted', async () => {
      text = await scrape();
      return delta(text, 'pops_calendar_requests_finished_total', { status: 'error' }) === 1;
    });
    expect(delta(text, 'pops_calendar_days_accepted_total')).toBe(3);
    expect(delta(text, 'pops_calendar_days_skipped_total', { reason: 'past' })).toBe(2);
    expect(delta(text, 'pops_calendar_days_skipped_total', { reason: 'no_currency' })).toBe(1);
    expect(delta(text, 'pops_calendar_days_skipped_total', { reason: 'nothing' })).toBe(1);
    expect(delta(text, 'pops_calendar_days_applied_total')).toBe(4);
    expect(delta(text, 'pops_calendar_requests_finished_total', { status: 'completed' })).toBe(2);
    expect(delta(text, 'pops_calendar_requests_reenqueued_total')).toBe(2);
    expect(delta(text, 'pops_job_duration_seconds_count', { job: 'apply-calendar-request', outcome: 'completed' })).toBe(2);
    expect(delta(text, 'pops_job_duration_seconds_count', { job: 'apply-calendar-request', outcome: 'failed' })).toBe(3);
    expect(sample(text, 'pops_queue_jobs', { queue: 'calendar', state: 'failed' })).toBe(1);
  });

  it('is also served by a worker process on its own port, with /livez', async () => {
    const server = await startMetricsServer({ port: 0, host: '127.0.0.1', metrics: w.p.api.ctx.metrics, queues: [w.p.api.ctx.jobs.calendar.queue], timeoutMs: 300, logger: createLogger('silent') });
    try {
      const text = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();
      expect(sample(text, 'pops_queue_up', { queue: 'calendar' })).toBe(1);
      expect(text).toContain('# TYPE pops_job_duration_seconds histogram');
      expect(text).toContain('process_cpu_user_seconds_total');
      expect((await fetch(`http://127.0.0.1:${server.port}/livez`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${server.port}/other`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
