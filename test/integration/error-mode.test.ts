import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../bin/cli/main.js';
import { installApp } from '../../shared/domain/oauth/index.js';
import { issueToken, setAppDisabled } from '../../shared/domain/auth/index.js';
import { ConsoleClient, createUser } from '../support/console.js';
import { createCompany, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * docs/api.md "Error answers per app": an app's error mode (`igms`: HTTP 200 with the same body;
 * `http`: the table's statuses) set by the operator (`app set`), by the developer on an OAuth client
 * (`oauth-client create --error-mode`, the console's Developer apps); an app with none, and an
 * answer before any app is known, follow ERROR_HTTP_STATUS. Each reachable code in both modes here;
 * every code through the error middleware in test/unit/error-mode.test.ts.
 */

const t = useWorld({ apis: { statuses: {}, always200: { env: { ERROR_HTTP_STATUS: 'always-200' } } } });
const w = {} as { company: string; igms: string; http: string; none: string; igmsDisabled: string; httpDisabled: string; igmsAvail: string; httpAvail: string };

const cli = async (...args: string[]) => {
  let out = '';
  let err = '';
  const code = await runCli(args, { env: { DATABASE_URL: t.tdb.url }, io: { result: (l) => (out += `${l}\n`), note: (l) => (err += `${l}\n`) } });
  return { code, out: out.trim(), err };
};
/** A token of a new app given that error mode by the operator's CLI. */
async function tokenInMode(mode: 'igms' | 'http' | 'default', scopes: Parameters<typeof createToken>[2] = ['tasks']) {
  const issued = await createToken(t.tdb.database.db, w.company, scopes);
  const set = await cli('app', 'set', '--company', w.company, '--app', issued.appUid, '--error-mode', mode);
  expect(set.code, set.err).toBe(0);
  expect(set.out).toBe(`error mode: ${mode}`);
  return issued;
}

beforeAll(async () => {
  const db = t.tdb.database.db;
  w.company = await createCompany(db);
  w.igms = (await tokenInMode('igms')).token;
  w.http = (await tokenInMode('http')).token;
  w.none = (await tokenInMode('default')).token;
  for (const mode of ['igms', 'http'] as const) {
    const d = await tokenInMode(mode);
    await setAppDisabled(db, w.company, d.appUid, true);
    w[mode === 'igms' ? 'igmsDisabled' : 'httpDisabled'] = d.token;
  }
  w.igmsAvail = (await tokenInMode('igms', ['availability-control'])).token;
  w.httpAvail = (await tokenInMode('http', ['availability-control'])).token;
});

describe('an app’s error mode set by the operator (app set)', () => {
  it.each([
    [11, 400, '/api/v1/tasks?page=0', 'tasks'],
    [11, 404, '/api/v1/property/pr_nope', 'tasks'],
    [13, 403, '/api/v1/tasks', 'disabled'],
    [14, 403, '/api/v1/guests', 'tasks'],
  ] as const)('code %i (HTTP %i): igms answers 200 and http the status, whatever ERROR_HTTP_STATUS', async (code, status, path, who) => {
    const [igms, http] = who === 'disabled' ? [w.igmsDisabled, w.httpDisabled] : [w.igms, w.http];
    const [igmsS, igmsA, httpS, httpA] = await Promise.all([t.apis.statuses.get(path, igms), t.apis.always200.get(path, igms), t.apis.statuses.get(path, http), t.apis.always200.get(path, http)]);
    expect([igmsS.status, igmsA.status, httpS.status, httpA.status]).toEqual([200, 200, status, status]);
    for (const r of [igmsS, igmsA, httpA]) expect(r.body).toEqual(httpS.body);
    expect(httpS.body.error.code).toBe(code);
  });

  it('an app with no mode follows ERROR_HTTP_STATUS', async () => {
    const [s, a] = await Promise.all([t.apis.statuses.get('/api/v1/guests', w.none), t.apis.always200.get('/api/v1/guests', w.none)]);
    expect([s.status, a.status]).toEqual([403, 200]);
  });

  it('code 12: before any app is known (no token, an unknown one) ERROR_HTTP_STATUS decides', async () => {
    for (const token of [undefined, 'not-a-token']) {
      const [s, a] = await Promise.all([t.apis.statuses.get('/api/v1/tasks', token), t.apis.always200.get('/api/v1/tasks', token)]);
      expect([s.status, a.status, s.body.error.code]).toEqual([401, 200, 12]);
    }
  });

  it('code 16 (429): igms answers 200 with Retry-After, http 429 under always-200', async () => {
    const limited = await t.startApi({ env: { RATE_LIMIT_PER_MINUTE: '1' } });
    const limited200 = await t.startApi({ env: { RATE_LIMIT_PER_MINUTE: '1', ERROR_HTTP_STATUS: 'always-200' } });
    try {
      const igms = (await tokenInMode('igms')).token;
      const http = (await tokenInMode('http')).token;
      expect((await limited.get('/api/v1/tasks', igms)).status).toBe(200);
      expect((await limited.get('/api/v1/tasks', http)).status).toBe(200);
      const [i, h] = [await limited.get('/api/v1/tasks', igms), await limited200.get('/api/v1/tasks', http)];
      expect([i.status, i.body.error.code, h.status, h.body.error.code]).toEqual([200, 16, 429, 16]);
      expect(Number(i.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await Promise.all([limited.close(), limited200.close()]);
    }
  });

  it('the v2 availability error body follows the mode too', async () => {
    const body = { property_uid: 'pr_nope', start_date: '2030-01-01', end_date: '2030-01-02', is_available: 1 };
    const [i, h] = await Promise.all([t.apis.statuses.post('/api/v2/set-property-calendar-availability', body, w.igmsAvail), t.apis.always200.post('/api/v2/set-property-calendar-availability', body, w.httpAvail)]);
    expect([i.status, h.status]).toEqual([200, 404]);
    expect(i.body).toEqual(h.body);
    expect(i.body).toMatchObject({ success: false });
  });

  it('refuses an unknown mode or app', async () => {
    const { appUid } = await createToken(t.tdb.database.db, w.company, ['tasks']);
    expect((await cli('app', 'set', '--company', w.company, '--app', appUid, '--error-mode', 'always-200')).code).toBe(2);
    expect((await cli('app', 'set', '--company', w.company, '--app', 'app_nope', '--error-mode', 'igms')).code).toBe(1);
  });
});

describe('an OAuth client’s error mode set by its developer', () => {
  async function clientToken(clientId: string) {
    const db = t.tdb.database.db;
    const appUid = await installApp(db, clientId, w.company, 'installed');
    return (await issueToken(db, w.company, { scopes: ['tasks'], appUid })).token;
  }

  it('oauth-client create --error-mode igms: every installation answers its errors with 200; an app’s own mode wins', async () => {
    const made = await cli('oauth-client', 'create', '--name', 'Legacy PMS', '--redirect-uri', 'https://pms.example/cb', '--error-mode', 'igms');
    expect(made.code, made.err).toBe(0);
    const clientId = made.out.replace('client_id: ', '');
    const token = await clientToken(clientId);
    const res = await t.apis.statuses.get('/api/v1/guests', token);
    expect([res.status, res.body.error.code]).toEqual([200, 14]);
    const [app] = await t.tdb.database.db.execute<{ uid: string }>(`select uid from apps where client_uid = '${clientId}'`);
    expect((await cli('app', 'set', '--company', w.company, '--app', app!.uid, '--error-mode', 'http')).code).toBe(0);
    const fresh = await t.startApi();
    try {
      expect((await fresh.get('/api/v1/guests', token)).status).toBe(403);
    } finally {
      await fresh.close();
    }
  });

  it('the console’s Developer apps page sets it for the company’s own client, and only that', async () => {
    const owner = await createUser(t.tdb.database.db, w.company, { role: 'owner' });
    const c = new ConsoleClient(t.apis.statuses.baseUrl);
    expect((await c.signIn(owner.email, owner.password)).status).toBe(303);
    const csrf = () => c.get('/app/developer-apps').then((p) => ConsoleClient.fields(p.text)._csrf!);
    const registered = await c.post('/app/developer-apps', { _csrf: await csrf(), name: 'Channel sync', redirect_uris: 'https://sync.example/cb', scopes: 'tasks' });
    const clientId = /client_id: <span class="secret">(cli_[A-Za-z0-9_-]+)</.exec(registered.text)?.[1];
    expect(clientId).toBeDefined();
    const token = await clientToken(clientId!);
    expect((await t.apis.statuses.get('/api/v1/guests', token)).status).toBe(403);
    const set = await c.post('/app/developer-apps/error-mode', { _csrf: await csrf(), client_id: clientId!, error_mode: 'igms' });
    expect([set.status, set.location]).toEqual([303, `${t.apis.statuses.baseUrl}/app/developer-apps`]);
    expect((await c.get('/app/developer-apps')).text).toMatch(/<option value="igms" selected="?"?>iGMS: HTTP 200/);
    const fresh = await t.startApi();
    try {
      expect((await fresh.get('/api/v1/guests', token)).status).toBe(200);
    } finally {
      await fresh.close();
    }
    const cli2 = await cli('oauth-client', 'create', '--name', 'Not theirs', '--redirect-uri', 'https://x.example/cb');
    const foreign = cli2.out.replace('client_id: ', '');
    expect((await c.post('/app/developer-apps/error-mode', { _csrf: await csrf(), client_id: foreign, error_mode: 'igms' })).status).toBe(400);
  });
});
