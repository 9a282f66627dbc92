import { beforeAll, describe, expect, it } from 'vitest';
import { setAppDisabled } from '../../shared/domain/auth/index.js';
import type { Database } from '../../shared/infra/db/client.js';
import type { TestApi } from '../support/api.js';
import { createCompany, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * ERROR_HTTP_STATUS=always-200: every error answers HTTP 200 with the body and headers it has by
 * default, as iGMS does. One error of each code, compared with the same request on a default API.
 */

const t = useWorld({ apis: { standard: {}, always: { env: { ERROR_HTTP_STATUS: 'always-200' } } } });
let deadDb: Database;
const w = {} as { tasks: string; disabled: string; limitedToken: string; availability: string };

beforeAll(async () => {
  const db = t.tdb.database.db;
  const company = await createCompany(db);
  w.tasks = (await createToken(db, company, ['tasks'])).token;
  const disabled = await createToken(db, company, ['tasks']);
  await setAppDisabled(db, company, disabled.appUid, true);
  w.disabled = disabled.token;
  w.limitedToken = (await createToken(db, company, ['tasks'])).token;
  w.availability = (await createToken(db, company, ['availability-control'])).token;
  deadDb = t.deadDatabase();
});

/** The same request to an API with and without the setting. */
async function both(mode: Partial<{ env: Record<string, string>; db: Database['db'] | Database }>, path: string, token?: string) {
  let pair: [TestApi, TestApi] = [t.apis.standard, t.apis.always];
  if (mode.db || mode.env) {
    const database = !mode.db ? t.tdb.database : 'sql' in mode.db ? (mode.db) : { ...t.tdb.database, db: mode.db };
    const env = mode.env ?? {};
    pair = [
      await t.startApi({ env, database }),
      await t.startApi({ env: { ...env, ERROR_HTTP_STATUS: 'always-200' }, database }),
    ];
  }
  return Promise.all([pair[0].get(path, token), pair[1].get(path, token)]);
}

describe('ERROR_HTTP_STATUS=always-200', () => {
  it.each([
    [11, 400, '/api/v1/tasks?page=0', 'tasks'],
    [11, 404, '/api/v1/property/pr_nope', 'tasks'],
    [12, 401, '/api/v1/tasks', undefined],
    [13, 403, '/api/v1/tasks', 'disabled'],
    [14, 403, '/api/v1/guests', 'tasks'],
  ] as const)('code %i (HTTP %i by default) answers 200 with the same body', async (code, status, path, who) => {
    const [standard, always] = await both({}, path, who ? w[who] : undefined);
    expect(standard.status).toBe(status);
    expect(standard.body.error.code).toBe(code);
    expect(always.status).toBe(200);
    expect(always.body).toEqual(standard.body);
  });

  it('code 16 (429) answers 200 with the same body and the Retry-After header', async () => {
    // The limit is per token across processes: the first request (through a process with the same
    // limit) uses it up for both.
    const first = await t.startApi({ env: { RATE_LIMIT_PER_MINUTE: '1' } });
    expect((await first.get('/api/v1/tasks', w.limitedToken)).status).toBe(200);
    const [standard, always] = await both({ env: { RATE_LIMIT_PER_MINUTE: '1' } }, '/api/v1/tasks', w.limitedToken);
    expect(standard.status).toBe(429);
    expect(always.status).toBe(200);
    expect(always.body).toEqual(standard.body);
    expect(always.body.error.code).toBe(16);
    // The limit slides (GCRA): the wait counts down continuously, so two answers a moment apart
    // may round to neighbouring seconds.
    const wait = (h: Headers) => Number(h.get('retry-after'));
    expect(wait(always.headers)).toBeGreaterThanOrEqual(1);
    expect(Math.abs(wait(always.headers) - wait(standard.headers))).toBeLessThanOrEqual(1);
  });

  it('code 0 (500) and code 15 (503) answer 200 with the same body', async () => {
    const buggy = new Proxy({}, { get: () => { throw new Error('bug'); } }) as Database['db'];
    const [s0, a0] = await both({ db: buggy }, '/api/v1/tasks', w.tasks);
    expect([s0.status, a0.status, a0.body.error.code]).toEqual([500, 200, 0]);
    expect(a0.body).toEqual(s0.body);
    const [s15, a15] = await both({ db: deadDb }, '/api/v1/tasks', w.tasks);
    expect([s15.status, a15.status, a15.body.error.code]).toEqual([503, 200, 15]);
    expect(a15.body).toEqual(s15.body);
  });

  it.each([
    ['a malformed body', 400, { property_uid: 'pr_nope', start_date: '2030-01-02', end_date: '2030-01-01', is_available: 1 }],
    ['an unknown property', 404, { property_uid: 'pr_nope', start_date: '2030-01-01', end_date: '2030-01-02', is_available: 1 }],
    ['a body that is not JSON', 400, '{"property_uid":'],
  ] as const)('the v2 availability error body for %s (HTTP %i by default) answers 200 too', async (_what, status, body) => {
    const path = '/api/v2/set-property-calendar-availability';
    // post() sends a string as it is: the last case is a broken JSON text.
    const send = (api: TestApi) => api.post(path, body, w.availability);
    const [standard, always] = await Promise.all([send(t.apis.standard), send(t.apis.always)]);
    expect(standard.status).toBe(status);
    expect(standard.body).toMatchObject({ success: false, availability: [] });
    expect(always.status).toBe(200);
    expect(always.body).toEqual(standard.body);
  });

  it('leaves successful answers alone', async () => {
    const [standard, always] = await both({}, '/api/v1/company', w.tasks);
    expect(standard.status).toBe(200);
    expect(always.body).toEqual(standard.body);
  });
});
