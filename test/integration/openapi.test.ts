import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpoints } from '../../api/endpoints/index.js';
import { buildOpenApi, type OpenApi } from '../../api/openapi/document.js';
import { setAppDisabled } from '../../shared/domain/auth/index.js';
import type { Database } from '../../shared/infra/db/client.js';
import { readAnswer, type TestApi } from '../support/api.js';
import { bookingRow, createBookings, createCompany, createProperty, createTask, createTeamMember, createToken } from '../support/factories.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';
import { exerciseInventory, inventoryGuardedOps } from '../support/openapi-inventory.js';
import { exerciseMessaging, messagingGuardedOps } from '../support/openapi-messaging.js';
import { exerciseInbound } from '../support/openapi-inbound.js';
import { exerciseReservations, reservationGuardedOps } from '../support/openapi-reservations.js';
import { exerciseIgmsV2, igmsV2GuardedOps } from '../support/openapi-igms-v2.js';
import { calendarControlGuardedOps, exerciseCalendarControl } from '../support/openapi-calendar-control.js';
import { exerciseOAuth } from '../support/openapi-oauth.js';
import { exerciseWebhooks, webhookGuardedOps } from '../support/openapi-webhooks.js';
import { useWorld } from '../support/world.js';

/*
 * Every answer the API really gives (success and error, on every endpoint) parses with the zod schema
 * the document declares for that status, key for key.
 */

type Doc = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };
type Res = { status: number; body: any; headers: Headers };

const t = useWorld({ queue: 'redis', env: { CALENDAR_MAX_DAYS: '20', CALENDAR_CHUNK_DAYS: '5', BODY_LIMIT_BYTES: '4096' } });
let api: TestApi;
let openapi: OpenApi;
let served: Doc;
const seen = new Set<string>();
const w = {} as {
  company: string; property: string; all: string; tasksOnly: string; disabled: string; calendarOnly: string;
  task: string; completedTask: string; cleaner: string; requestUid: string; requestUid2: string;
};
const allScopes = ['messaging', 'smart-locks', 'calendar-control', 'listings', 'tasks'] as const;

async function call(target: TestApi, method: 'GET' | 'POST', path: string, opts: { token?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Res> {
  const res = await fetch(target.baseUrl + path, {
    method,
    headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
    ...(opts.body !== undefined ? { body: opts.body } : {}),
  });
  return readAnswer(res);
}

/** The answer must be declared for its status, and parse with that schema without losing a key. */
function expectDeclared(method: string, path: string, res: Res, status?: number) {
  if (status !== undefined) expect(res.status, JSON.stringify(res.body)).toBe(status);
  const schema = openapi.responseSchema(method, path, res.status);
  expect(schema, `${method} ${path} answered ${res.status}, which the document does not declare: ${JSON.stringify(res.body)}`).toBeDefined();
  const parsed = (schema as z.ZodType).safeParse(res.body);
  expect(parsed.success, `${method} ${path} ${res.status}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  // zod drops undeclared keys: equality proves the answer has none.
  expect(parsed.data).toEqual(res.body);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  // Every header the document declares for this answer is really sent (ETag on update-task, RateLimit, Retry-After).
  const declaredHeaders = served?.paths[path]?.[method.toLowerCase()]?.responses?.[String(res.status)]?.headers ?? {};
  for (const name of Object.keys(declaredHeaders)) expect(res.headers.get(name), `${method} ${path} ${res.status} lacks its declared header ${name}`).not.toBeNull();
  seen.add(`${method.toLowerCase()} ${path} ${res.status}`);
}

const batchPath = '/api/v1/set-calendar-batch';
const availabilityPath = '/api/v2/set-property-calendar-availability';
/** Each token-protected operation, with a token of the company that lacks its scope. */
const guardedOps: Array<{ method: 'GET' | 'POST'; path: string; body?: unknown; wrongScope?: 'calendarOnly' | 'tasksOnly' }> = [
  { method: 'GET', path: '/api/v1/bookings', wrongScope: 'calendarOnly' },
  { method: 'POST', path: batchPath, body: { property_uid: 'x', days: [] }, wrongScope: 'tasksOnly' },
  { method: 'GET', path: '/api/v1/get-request-status?request_uid=rq_x', wrongScope: 'tasksOnly' },
  { method: 'GET', path: '/api/v1/get-calendar-data?property_uid=x&from_date=2030-01-01&to_date=2030-01-02', wrongScope: 'tasksOnly' },
  { method: 'GET', path: '/api/v1/tasks', wrongScope: 'calendarOnly' },
  { method: 'POST', path: '/api/v1/update-task', body: { task_uid: 'x' }, wrongScope: 'calendarOnly' },
  { method: 'POST', path: availabilityPath, body: { property_uid: 'x', start_date: '2030-01-01', end_date: '2030-01-02', is_available: 0 }, wrongScope: 'tasksOnly' },
  ...inventoryGuardedOps,
  ...messagingGuardedOps,
  ...reservationGuardedOps,
  ...igmsV2GuardedOps,
  ...calendarControlGuardedOps,
  { method: 'GET', path: '/api/v1/get-changes' },
  ...webhookGuardedOps,
];
/** The documented path of a URL: its query dropped, a direct-booking-content uid back to its template. */
const pathOf = (url: string) => (url.split('?')[0] as string).replace(/^\/api\/v2\/direct-booking-content\/[^/]+$/, '/api/v2/direct-booking-content/{listing_uid}');

beforeAll(async () => {
  api = t.p.api;
  openapi = buildOpenApi(api.ctx.config, endpoints);
  const db = t.tdb.database.db;
  w.company = await createCompany(db);
  w.property = await createProperty(db, w.company, { timeZone: 'Europe/Lisbon' });
  w.all = (await createToken(db, w.company, allScopes)).token;
  w.tasksOnly = (await createToken(db, w.company, ['tasks'])).token;
  w.calendarOnly = (await createToken(db, w.company, ['calendar-control'])).token;
  const disabled = await createToken(db, w.company, allScopes);
  await setAppDisabled(db, w.company, disabled.appUid, true);
  w.disabled = disabled.token;
  await createBookings(db, [bookingRow(w.company, w.property, { doorAccessCode: '7312' }), bookingRow(w.company, w.property, { doorAccessCode: null })]);
  w.cleaner = await createTeamMember(db, w.company);
  w.task = (await createTask(db, w.company, w.property)).taskUid;
  w.completedTask = (await createTask(db, w.company, w.property, { taskStatus: 'completed', teamMemberUid: w.cleaner })).taskUid;
  await t.p.startWorkers(1);
  const dates = futureDates(8);
  const res = await api.post(batchPath, { property_uid: w.property, days: dates.map((date, i) => ({ date, price: 100 + i, currency: 'usd' })) }, w.all);
  [w.requestUid, w.requestUid2] = res.body.data.request_uids;
  await waitForFinal(api, w.all, res.body.data.request_uids);
  served = (await api.get('/openapi.json')).body;
});

describe('real answers match the declared schemas', () => {
  it('bookings: a page with and without door codes, and bad parameters', async () => {
    const withCodes = await call(api, 'GET', '/api/v1/bookings', { token: w.all });
    expectDeclared('get', '/api/v1/bookings', withCodes, 200);
    expect(withCodes.body.data.map((b: any) => b.door_access_code).sort()).toEqual(['7312', null]);
    const calendarToken = (await createToken(t.tdb.database.db, w.company, ['messaging'])).token;
    const without = await call(api, 'GET', `/api/v1/bookings?access_token=${calendarToken}&order_by_created_dttm=true&from_date=2030-01-01`);
    expectDeclared('get', '/api/v1/bookings', without, 200);
    expect(without.body.data[0]).not.toHaveProperty('door_access_code');
    expectDeclared('get', '/api/v1/bookings', await call(api, 'GET', '/api/v1/bookings?platform_type=airbnb,myspace', { token: w.all }), 400);
  });

  it('set-calendar-batch: accepted, malformed, unknown property, reused key, too large, bad encoding', async () => {
    const [d1, d2] = futureDates(2, 30);
    const body = JSON.stringify({ property_uid: w.property, days: [{ date: d1, price: 10, currency: 'eur' }, { date: d2 }, { date: '2020-01-01', min_stay: 2 }] });
    expectDeclared('post', batchPath, await call(api, 'POST', batchPath, { token: w.all, body, headers: { 'idempotency-key': 'k-1' } }), 200);
    expectDeclared('post', batchPath, await call(api, 'POST', batchPath, { token: w.all, body: JSON.stringify({ property_uid: w.property, days: [{ date: d1 }] }), headers: { 'idempotency-key': 'k-1' } }), 409);
    expectDeclared('post', batchPath, await call(api, 'POST', batchPath, { token: w.all, body: JSON.stringify({ property_uid: w.property, days: [{ date: d1, min_stay: 0 }] }) }), 200);
    expectDeclared('post', batchPath, await call(api, 'POST', batchPath, { token: w.all, body: JSON.stringify({ property_uid: w.property, days: [{ date: '2030-02-30', min_stay: 2 }] }) }), 400);
    expectDeclared('post', batchPath, await call(api, 'POST', batchPath, { token: w.all, body: '{"property_uid": ' }), 400);
    expectDeclared('post', batchPath, await call(api, 'POST', batchPath, { token: w.all, body: JSON.stringify({ property_uid: 'pr_nope', days: [] }) }), 404);
    expectDeclared('post', batchPath, await call(api, 'POST', batchPath, { token: w.all, body: JSON.stringify({ property_uid: w.property, days: [], pad: 'x'.repeat(5000) }) }), 413);
    expectDeclared('post', batchPath, await call(api, 'POST', batchPath, { token: w.all, body, headers: { 'content-encoding': 'x-squash' } }), 415);
  });

  it('get-request-status: one, a list, unknown, missing', async () => {
    const path = '/api/v1/get-request-status';
    const one = await call(api, 'GET', `${path}?request_uid=${w.requestUid}`, { token: w.all });
    expectDeclared('get', path, one, 200);
    expect(one.body.data.request_status).toBe('completed');
    const many = await call(api, 'GET', `${path}?request_uids=${w.requestUid2},${w.requestUid}`, { token: w.all });
    expectDeclared('get', path, many, 200);
    expect(many.body.data.map((s: any) => s.request_uid)).toEqual([w.requestUid2, w.requestUid]);
    expectDeclared('get', path, await call(api, 'GET', `${path}?request_uids=${w.requestUid},rq_nope`, { token: w.all }), 404);
    expectDeclared('get', path, await call(api, 'GET', path, { token: w.all }), 400);
  });

  it('get-calendar-data: a range, a bad range, an unknown property', async () => {
    const path = '/api/v1/get-calendar-data';
    const [from, to] = [futureDates(1)[0], futureDates(1, 10)[0]];
    const res = await call(api, 'GET', `${path}?property_uid=${w.property}&from_date=${from}&to_date=${to}`, { token: w.all });
    expectDeclared('get', path, res, 200);
    expect(res.body.data).toHaveLength(9);
    expect(res.body.data[0]).toMatchObject({ price: 100, currency: 'USD', request_uid: w.requestUid });
    expect(res.body.data[8]).toMatchObject({ price: null, request_uid: null });
    expectDeclared('get', path, await call(api, 'GET', `${path}?property_uid=${w.property}&from_date=2030-01-01&to_date=2032-01-01`, { token: w.all }), 400);
    expectDeclared('get', path, await call(api, 'GET', `${path}?property_uid=pr_nope&from_date=2030-01-01&to_date=2030-01-02`, { token: w.all }), 404);
  });

  it('set-property-calendar-availability: accepted, malformed, not JSON, unknown property', async () => {
    const [from, to] = [futureDates(1, 40)[0], futureDates(1, 42)[0]];
    const body = (o: object) => JSON.stringify({ property_uid: w.property, start_date: from, end_date: to, is_available: 0, ...o });
    const ok = await call(api, 'POST', availabilityPath, { token: w.all, body: body({}) });
    expectDeclared('post', availabilityPath, ok, 200);
    expect(ok.body.availability).toHaveLength(3);
    expectDeclared('post', availabilityPath, await call(api, 'POST', availabilityPath, { token: w.all, body: body({ end_date: '2020-01-01' }) }), 400);
    expectDeclared('post', availabilityPath, await call(api, 'POST', availabilityPath, { token: w.all, body: '{"property_uid": ' }), 400);
    expectDeclared('post', availabilityPath, await call(api, 'POST', availabilityPath, { token: w.all, body: body({ property_uid: 'pr_nope' }) }), 404);
  });

  it('tasks and update-task: pages, changes, refusals', async () => {
    expectDeclared('get', '/api/v1/tasks', await call(api, 'GET', `/api/v1/tasks?property_uids=${w.property}`, { token: w.all }), 200);
    expectDeclared('get', '/api/v1/tasks', await call(api, 'GET', '/api/v1/tasks?page=0', { token: w.all }), 400);
    const path = '/api/v1/update-task';
    const updated = await call(api, 'POST', path, { token: w.all, body: JSON.stringify({ task_uid: w.task, cleaner_uid: w.cleaner, hr: 2, description: '' }) });
    expectDeclared('post', path, updated, 200);
    expect(updated.body.data[0]).toMatchObject({ team_member_uid: w.cleaner, task_status: 'assigned', description: null });
    expectDeclared('post', path, await call(api, 'POST', path, { token: w.all, body: JSON.stringify({ task_uid: w.task, hr: -1 }) }), 400);
    expectDeclared('post', path, await call(api, 'POST', path, { token: w.all, body: JSON.stringify({ task_uid: 'tk_nope' }) }), 404);
    expectDeclared('post', path, await call(api, 'POST', path, { token: w.all, body: JSON.stringify({ task_uid: w.completedTask, cleaner_uid: '' }) }), 409);
    expectDeclared('post', path, await call(api, 'POST', path, { token: w.all, body: JSON.stringify({ task_uid: w.task, description: 'x'.repeat(5000) }) }), 413);
    expectDeclared('post', path, await call(api, 'POST', path, { token: w.all, body: '{}', headers: { 'content-encoding': 'x-squash' } }), 415);
    expectDeclared('post', path, await call(api, 'POST', path, { token: w.all, body: JSON.stringify({ task_uid: w.task }), headers: { 'if-match': '"999"' } }), 412);
  });

  it('inventory and direct bookings: pages, one property, bookings made and cancelled, refusals', async () => {
    await exerciseInventory(api, t.tdb.database.db, w.company, w.property, call, expectDeclared);
  });

  it('messaging: threads, messages, statuses, refusals', async () => {
    await exerciseMessaging(api, t.tdb.database.db, w.company, call, expectDeclared);
  });

  it('channel connectors: a signed reply, its refusals, throttled, broken and down', async () => {
    await exerciseInbound(api, t.tdb, w.company, call, expectDeclared);
  });

  it('reservation requests, door codes, reports: answers and refusals', async () => {
    await exerciseReservations(api, t.tdb.database.db, w.company, w.property, call, expectDeclared);
  });

  it('the remaining iGMS v2 methods: answers and refusals', async () => {
    await exerciseIgmsV2(api, t.tdb.database.db, w.company, w.property, call, expectDeclared);
  });

  it('calendar ranges, calendar control, proposals, listing status: answers and refusals', async () => {
    await exerciseCalendarControl(api, t.tdb.database.db, w.company, w.property, call, expectDeclared);
  });

  it('the OAuth flow: the consent page, its refusals, the token exchange by GET and POST and its errors', async () => {
    await exerciseOAuth(api, t.tdb, w.company, call, expectDeclared, seen, (ok, what) => expect(ok, what).toBe(true));
  });

  it('webhooks: the self-service methods, their answers and refusals', async () => {
    await exerciseWebhooks(api, t.tdb.database.db, w.company, call, expectDeclared);
  });

  it('change feed: a page, a bad cursor, a kind the token cannot read, an expired cursor', async () => {
    const token = (await createToken(t.tdb.database.db, w.company, ['listings'])).token;
    expectDeclared('GET', '/api/v1/get-changes', await call(api, 'GET', '/api/v1/get-changes?cursor=now', { token }), 200);
    expectDeclared('GET', '/api/v1/get-changes', await call(api, 'GET', '/api/v1/get-changes?cursor=bad', { token }), 400);
    expectDeclared('GET', '/api/v1/get-changes', await call(api, 'GET', '/api/v1/get-changes?kinds=task', { token }), 403);
    await t.tdb.database.db.execute(sql`update change_feed set pruned_through = greatest(pruned_through, 1)`);
    const expired = Buffer.from('v1.1.0').toString('base64url');
    expectDeclared('GET', '/api/v1/get-changes', await call(api, 'GET', `/api/v1/get-changes?cursor=${expired}`, { token }), 410);
  });

  it('every token-protected operation: no token, unknown token, missing scope, disabled app', async () => {
    for (const op of guardedOps) {
      const body = op.body === undefined ? undefined : JSON.stringify(op.body);
      expectDeclared(op.method, pathOf(op.path), await call(api, op.method, op.path, { ...(body ? { body } : {}) }), 401);
      expectDeclared(op.method, pathOf(op.path), await call(api, op.method, op.path, { token: 'not-a-token', ...(body ? { body } : {}) }), 401);
      if (op.wrongScope) {
        const scope = await call(api, op.method, op.path, { token: w[op.wrongScope], ...(body ? { body } : {}) });
        expectDeclared(op.method, pathOf(op.path), scope, 403);
        expect(scope.body.error.code).toBe(14);
      }
      const disabled = await call(api, op.method, op.path, { token: w.disabled, ...(body ? { body } : {}) });
      expectDeclared(op.method, pathOf(op.path), disabled, 403);
      expect(disabled.body.error.code).toBe(13);
    }
  });

  // About a second per operation (the dead database's connect): the bound grows with the operations.
  it('every token-protected operation: rate limited, internal error, dependency down', { timeout: 90_000 }, async () => {
    const limited = await t.startApi({ env: { RATE_LIMIT_PER_MINUTE: '1' }, jobs: { calendar: api.ctx.jobs.calendar } });
    const token = (await createToken(t.tdb.database.db, w.company, allScopes)).token;
    // A database that throws a plain bug at the first query (500), and one that is not there (503).
    const buggy = new Proxy({}, { get: () => { throw new Error('bug'); } }) as Database['db'];
    // One connection per operation: the 503s are asked for all at once, each on a connection of its
    // own (one connection failing again and again waits up to 1 s before each new try, client.ts).
    const deadDb = t.deadDatabase(guardedOps.length);
    const broken = await t.startApi({ database: { ...t.tdb.database, db: buggy }, jobs: { calendar: api.ctx.jobs.calendar } });
    const down = await t.startApi({ database: deadDb, jobs: { calendar: api.ctx.jobs.calendar } });
    try {
      for (const op of guardedOps) {
        const body = op.body === undefined ? {} : { body: JSON.stringify(op.body) };
        // Uses up the token's one request of the current minute right before: on a busy machine the
        // loop outlasts a fixed window, and a fresh window would let the next request through.
        await call(limited, 'GET', '/api/v1/tasks', { token });
        const res = await call(limited, op.method, op.path, { token, ...body });
        expectDeclared(op.method, pathOf(op.path), res, 429);
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        expectDeclared(op.method, pathOf(op.path), await call(broken, op.method, op.path, { token, ...body }), 500);
      }
      const answers = await Promise.all(guardedOps.map((op) => call(down, op.method, op.path, { token, ...(op.body === undefined ? {} : { body: JSON.stringify(op.body) }) })));
      guardedOps.forEach((op, i) => expectDeclared(op.method, pathOf(op.path), answers[i]!, 503));
    } finally {
      await Promise.all([limited.close(), broken.close(), down.close()]);
      await deadDb.close();
    }
  });

  it('operations endpoints: livez, readyz up and down, metrics, openapi.json, docs', async () => {
    expectDeclared('get', '/livez', await call(api, 'GET', '/livez'), 200);
    expectDeclared('get', '/readyz', await call(api, 'GET', '/readyz'), 200);
    const queueDown = await t.startApi({ jobs: { calendar: { ...api.ctx.jobs.calendar, ping: () => Promise.reject(new Error('down')) } } });
    try {
      expectDeclared('get', '/readyz', await call(queueDown, 'GET', '/readyz'), 503);
    } finally {
      await queueDown.close();
    }
    const metrics = await call(api, 'GET', '/metrics');
    expectDeclared('get', '/metrics', metrics, 200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expectDeclared('get', '/openapi.json', await call(api, 'GET', '/openapi.json'), 200);
    const docs = await call(api, 'GET', '/docs');
    expectDeclared('get', '/docs', docs, 200);
    expect(docs.headers.get('content-type')).toContain('text/html');
    for (const op of Object.values(served.paths).flatMap((item) => Object.values(item))) expect(docs.body).toContain(`id="${op.operationId}"`);
  });

  it('produced every answer the document declares', () => {
    const declared = Object.entries(served.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) => Object.keys(op.responses).map((status) => `${method} ${path} ${status}`)),
    );
    expect(declared.filter((d) => !seen.has(d))).toEqual([]);
  });
});
