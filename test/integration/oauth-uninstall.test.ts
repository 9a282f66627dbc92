import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../support/api.js';
import { ConsoleClient, createUser } from '../support/console.js';
import { createCompany, createProperty } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates } from '../support/pipeline.js';

/*
 * Issue 39 H1: after an app is uninstalled (or disabled), no code issued before can be exchanged,
 * every token of the app is refused at once by every API process (one of which remembers the
 * token: set-calendar-batch's token from memory), and Connected apps lists every app that still
 * holds a live token.
 */

const w = useWorld({ api: true, apis: { second: {} } });
let company: string;
let property: string;
let owner: { email: string; password: string };
let client: { clientId: string };
const REDIRECT = 'https://app.example.test/callback';

beforeAll(async () => {
  company = await createCompany(w.tdb.database.db, 'Acme Stays');
  property = await createProperty(w.tdb.database.db, company);
  owner = await createUser(w.tdb.database.db, company, { role: 'owner' });
  client = await w.api.ctx.services.oauth.createClient({ name: 'Calendar Bot', redirectUris: [REDIRECT], scopes: ['messaging', 'calendar-control'], withSecret: false });
});

async function signedIn(): Promise<ConsoleClient> {
  const c = new ConsoleClient(w.api.baseUrl);
  expect((await c.signIn(owner.email, owner.password)).status).toBe(303);
  return c;
}

/** Allow on the consent page: a fresh code (the app installed, or installed again). */
async function code(c: ConsoleClient): Promise<string> {
  const url = `/app/auth.html?${new URLSearchParams({ client_id: client.clientId, redirect_uri: REDIRECT, scope: 'messaging,calendar-control' }).toString()}`;
  const page = await c.get(url);
  expect(page.status, page.text.slice(0, 300)).toBe(200);
  const res = await c.post('/app/auth.html', { ...ConsoleClient.fields(page.text), decision: 'allow' });
  expect(res.status).toBe(302);
  return new URL(res.location!).searchParams.get('code')!;
}

const exchange = (code: string) =>
  w.api.get(`/auth/token?${new URLSearchParams({ grant_type: 'authorization_code', redirect_uri: REDIRECT, client_id: client.clientId, code }).toString()}`);

const appUid = async () =>
  (await w.tdb.database.sql<{ uid: string }[]>`select uid from apps where client_uid = ${client.clientId} and company_uid = ${company}`)[0]!.uid;

async function uninstall(c: ConsoleClient) {
  const uid = await appUid();
  const res = await c.post(`/app/connected-apps/${uid}/uninstall`, { _csrf: await c.csrf('/app/connected-apps') });
  expect(res.status, res.text.slice(0, 300)).toBe(303);
}

const batch = (who: TestApi, token: string) =>
  who.post('/api/v1/set-calendar-batch', { property_uid: property, days: futureDates(2).map((date) => ({ date, min_stay: 2 })) }, token);

describe('an uninstalled app', () => {
  it('refuses a code issued before the uninstall, and again once the app is authorized anew', async () => {
    const c = await signedIn();
    const early = await code(c);
    const later = await code(c);
    await uninstall(c);
    expect(await exchange(early)).toMatchObject({ status: 400, body: { error: 'Invalid authorization code' } });
    // Authorized again: the app is installed anew, an old code still buys nothing; a new one does.
    const fresh = await code(c);
    expect(await exchange(later)).toMatchObject({ status: 400, body: { error: 'Invalid authorization code' } });
    const ok = await exchange(fresh);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('refuses a code issued before the app was disabled, even once enabled again', async () => {
    const c = await signedIn();
    const early = await code(c);
    await w.api.ctx.services.tokens.setAppDisabled(company, await appUid(), true);
    expect((await exchange(early)).status).toBe(400);
    await w.api.ctx.services.tokens.setAppDisabled(company, await appUid(), false);
    expect((await exchange(early)).status).toBe(400);
  });

  it('refuses every token of the app on every API process at once, a remembered one too', async () => {
    const c = await signedIn();
    const token = (await exchange(await code(c))).body.access_token as string;
    for (const who of [w.api, w.apis.second]) expect((await batch(who, token)).status).toBe(200);
    // The app marked uninstalled with the token left unrevoked: what a racing exchange made before.
    await w.tdb.database.sql`update apps set uninstalled_at = now() where uid = ${await appUid()}`;
    for (const who of [w.api, w.apis.second]) {
      expect((await batch(who, token)).status).toBe(401);
      expect((await who.get('/api/v1/bookings', token)).status).toBe(401);
    }
  });

  it('stays in Connected apps while it holds a live token, and Uninstall revokes it', async () => {
    const c = await signedIn();
    const token = (await exchange(await code(c))).body.access_token as string;
    const uid = await appUid();
    await w.tdb.database.sql`update apps set uninstalled_at = now() where uid = ${uid}`;
    expect((await c.get('/app/connected-apps')).text).toContain(uid);
    await uninstall(c);
    expect((await c.get('/app/connected-apps')).text).not.toContain(uid);
    const live = await w.tdb.database.sql<{ n: number }[]>`select count(*)::int as n from access_tokens where app_uid = ${uid} and not revoked`;
    expect(live[0]!.n).toBe(0);
    await w.tdb.database.sql`update apps set uninstalled_at = null where uid = ${uid}`;
    expect((await w.apis.second.get('/api/v1/bookings', token)).status).toBe(401);
  });

  it('an exchange racing an uninstall never leaves a live token of the uninstalled app', async () => {
    for (let i = 0; i < 8; i++) {
      const c = await signedIn();
      const pending = await code(c);
      const [answer] = await Promise.all([exchange(pending), uninstall(c)]);
      const live = await w.tdb.database.sql<{ n: number }[]>`select count(*)::int as n from access_tokens where app_uid = ${await appUid()} and not revoked`;
      expect(live[0]!.n, `round ${i}: exchange answered ${answer.status}`).toBe(0);
      if (answer.status === 200) expect((await w.apis.second.get('/api/v1/bookings', answer.body.access_token)).status).toBe(401);
    }
  });
});
