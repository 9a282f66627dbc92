import { beforeAll, describe, expect, it } from 'vitest';
import { insertRequests } from '../../shared/platform/requests/index.js';
import type { Runtime } from '../../shared/app/runtime.js';
import type { TestApi } from '../support/api.js';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { fastQueueEnv, futureDates, waitForFinal } from '../support/pipeline.js';
import type { TestQueue } from '../support/queue.js';
import { captureLogs, until, type CapturedLogs } from '../support/ops.fixture.js';
import { useWorld } from '../support/world.js';

/*
 * What the logs hold, read from a real logger writing into memory: the request id on every line of
 * a request, the request uid on every line of a job, and never a token or a door code.
 */

const DOOR_CODE = 'DOOR-7731-XYZ';
const ADMIN = 'admin-token-kept-out-of-logs-9';

const t = useWorld();
let queue: TestQueue;
let apiLogs: CapturedLogs;
let jobLogs: CapturedLogs;
let api: TestApi;
let workerRuntime: Runtime;
let company: string;
let property: string;
let token: string;
let lockToken: string;

beforeAll(async () => {
  queue = t.queue('redis');
  // Calendar jobs and their enqueue: the job path (CALENDAR_PUMP off; the pump's lines: calendar-pump.test.ts).
  const env = { ...fastQueueEnv, ADMIN_TOKEN: ADMIN, CALENDAR_PUMP: 'off' };
  apiLogs = captureLogs();
  jobLogs = captureLogs();
  api = await t.startApi({ env, logger: apiLogs.logger, queue: queue.conn });
  // The worker logs on its own: a runtime of its own over the same database and queue.
  workerRuntime = await t.runtime({ env, logger: jobLogs.logger, queue: queue.conn });
  await t.startWorker(workerRuntime, queue.conn);
  const db = t.tdb.database.db;
  company = await createCompany(db);
  property = await createProperty(db, company);
  token = (await createToken(db, company, ['calendar-control', 'messaging'])).token;
  lockToken = (await createToken(db, company, ['smart-locks'])).token;
  await createBookings(db, [bookingRow(company, property, { doorAccessCode: DOOR_CODE })]);
});

/** The lines logged from sending a request to a moment after its answer (no other request runs). */
async function linesOf(send: () => Promise<Response>): Promise<{ res: Response; lines: Array<Record<string, any>> }> {
  const from = apiLogs.lines().length;
  const res = await send();
  await res.arrayBuffer();
  await until('the request line', () => apiLogs.lines().slice(from).some((l) => l.res));
  return { res, lines: apiLogs.lines().slice(from) };
}

describe('request logs', () => {
  it('put the client X-Request-Id on every line of the request, services included, and echo it', async () => {
    // A queue that cannot take the job makes the service log a warning inside the request.
    const down = await t.startApi({
      env: { ...fastQueueEnv, CALENDAR_PUMP: 'off' },
      logger: apiLogs.logger, jobs: { calendar: { ...api.ctx.jobs.calendar, enqueue: () => Promise.reject(new Error('queue down')) } },
    });
    try {
      const { res, lines } = await linesOf(() =>
        fetch(`${down.baseUrl}/api/v1/set-calendar-batch?access_token=${token}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-request-id': 'trace-abc-123' },
          body: JSON.stringify({ property_uid: property, days: [{ date: futureDates(1)[0], min_stay: 2 }] }),
        }),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBe('trace-abc-123');
      expect(lines.map((l) => l.msg)).toContain('queue unreachable after commit; the re-enqueue sweep will add these requests');
      expect(lines.length).toBeGreaterThanOrEqual(2);
      for (const line of lines) expect(line.reqId, JSON.stringify(line)).toBe('trace-abc-123');
      const done = lines.find((l) => l.res);
      expect(done).toMatchObject({ level: 30, req: { method: 'POST', url: '/api/v1/set-calendar-batch?access_token=[redacted]' }, res: { statusCode: 200 } });
      expect(done?.responseTime).toBeTypeOf('number');
    } finally {
      await down.close();
    }
  });

  it('generates an id when none (or an unusable one) is sent, distinct per request, on error lines too', async () => {
    const ids = new Set<string>();
    for (const given of [undefined, 'has spaces in it', 'x'.repeat(200)]) {
      const { res, lines } = await linesOf(() => fetch(`${api.baseUrl}/api/v1/bookings?page=zero`, { headers: { authorization: `Bearer ${token}`, ...(given ? { 'x-request-id': given } : {}) } }));
      const id = res.headers.get('x-request-id') as string;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(id);
      for (const line of lines) expect(line.reqId).toBe(id);
      expect(lines.find((l) => l.res)).toMatchObject({ errorCode: 11, res: { statusCode: 400 } });
    }
    expect(ids.size).toBe(3);
  });

  it('never contain a token (query or header), the admin token or a door code', async () => {
    const before = apiLogs.raw().length;
    const bogus = 'bogus-secret-token-that-is-long-123';
    const answers = [
      await fetch(`${api.baseUrl}/api/v1/bookings?access_token=${lockToken}&page=1`),
      await fetch(`${api.baseUrl}/api/v1/bookings`, { headers: { authorization: `Bearer ${lockToken}` } }),
      await fetch(`${api.baseUrl}/api/v1/bookings?page=1&access_token=${bogus}`),
      await fetch(`${api.baseUrl}/api/v1/bookings?Access_Token=${bogus}`),
      await fetch(`${api.baseUrl}/no/such/path?access_token=${bogus}`, { headers: { authorization: `Bearer ${bogus}` } }),
      await fetch(`${api.baseUrl}/admin/queues`, { headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}` } }),
      await fetch(`${api.baseUrl}/admin/queues`, { headers: { authorization: `Bearer ${ADMIN}x` } }),
    ];
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 401, 401, 404, 200, 401]);
    expect(bodies[0]).toContain(DOOR_CODE);
    await until('every request line', () => apiLogs.lines().filter((l) => l.res).length >= 7);
    const logged = apiLogs.raw().slice(before);
    expect(logged).toContain('access_token=[redacted]');
    for (const secret of [lockToken, token, bogus, ADMIN, DOOR_CODE, Buffer.from(`admin:${ADMIN}`).toString('base64')]) {
      expect(logged).not.toContain(secret);
    }
    expect(apiLogs.raw()).not.toContain(DOOR_CODE);
  });
  it('never contain a token whatever the spelling of its parameter name: encoded, array form, mixed case, other header', async () => {
    const before = apiLogs.raw().length;
    const enc = encodeURIComponent(lockToken);
    const spellings = [
      `access%5Ftoken=${enc}`, // decodes to access_token: authenticates
      `%61ccess_token=${enc}`, // likewise
      `access_token[]=${enc}`,
      `access_token%5B0%5D=${enc}`,
      `ACCESS_TOKEN=${enc}`,
      `Access-Token=${enc}`,
      `access%255Ftoken=${enc}`, // encoded twice
      `x=1;access_token=${enc}`,
      `a[access_token]=${enc}`,
      `admin%5Ftoken=${encodeURIComponent(ADMIN)}`,
    ];
    const answers = await Promise.all(spellings.map((q) => fetch(`${api.baseUrl}/api/v1/bookings?page=1&${q}`)));
    await Promise.all(answers.map((r) => r.arrayBuffer()));
    expect(answers.slice(0, 2).map((r) => r.status)).toEqual([200, 200]);
    const other = await fetch(`${api.baseUrl}/api/v1/bookings`, { headers: { 'x-access-token': lockToken, 'x-api-key': lockToken, referer: `http://x/?access_token=${lockToken}` } });
    expect(other.status).toBe(401);
    await other.arrayBuffer();
    await until('every request line', () => apiLogs.raw().slice(before).split('\n').filter((l) => l.includes('"res":')).length >= spellings.length + 1);
    const logged = apiLogs.raw().slice(before);
    for (const secret of [lockToken, enc, ADMIN]) expect(logged).not.toContain(secret);
    expect(logged.match(/=\[redacted\]/g)?.length).toBeGreaterThanOrEqual(spellings.length);
    // What is not a secret stays readable.
    expect(logged).toContain('page=1&');
  });
});

describe('job logs', () => {
  it('put the request uid on every line of a job, retries and failures included', async () => {
    const res = await api.post('/api/v1/set-calendar-batch', { property_uid: property, days: futureDates(3).map((date) => ({ date, price: 80, currency: 'EUR' })) }, token);
    expect(res.status).toBe(200);
    // A request that cannot be applied (a price too large for its column) logs each attempt.
    const [failing] = await insertRequests(t.tdb.database.db, company, property, [[{ date: futureDates(1)[0] as string, price: 1e15, currency: 'EUR', is_available: null, min_stay: null, notes: null }]], [{}]);
    await api.ctx.jobs.calendar.enqueue([failing as string]);
    const uids = [...res.body.data.request_uids, failing];
    await waitForFinal(api, token, uids);

    const lines = jobLogs.lines().filter((l) => l.jobId !== undefined || l.requestUid !== undefined);
    const applied = lines.filter((l) => l.msg === 'calendar request applied');
    expect(applied.map((l) => l.requestUid)).toEqual(expect.arrayContaining(res.body.data.request_uids));
    const attempts = lines.filter((l) => l.requestUid === failing);
    expect(attempts.map((l) => l.msg)).toEqual([
      'calendar request attempt failed; will retry',
      'calendar request attempt failed; will retry',
      'calendar request failed for good',
    ]);
    for (const line of lines) {
      expect(line.requestUid, JSON.stringify(line)).toBe(line.jobId);
      expect(line.requestUid).toMatch(/^rq_/);
    }
    // The raw text too: each key once per line (the handler's own binding and the job context merge).
    for (const raw of jobLogs.raw().split('\n').filter((l) => l.includes('"jobId"'))) {
      expect(raw.match(/"requestUid"/g)).toHaveLength(1);
    }
  });
});
