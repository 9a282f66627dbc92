import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { oauthClients } from '../../shared/infra/db/schema/index.js';
import { sha256 } from '../../shared/infra/ids.js';
import type { TestApi } from '../support/api.js';
import { ConsoleClient, createUser } from '../support/console.js';
import { createCompany, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * docs/api.md "Apps connect themselves": the console's Connected apps (installed apps, scopes,
 * tokens with created / last used, revoke a token, uninstall an app) and Developer apps (owners
 * register a client; the secret shown once). Every guard has its attack here.
 */

/** `apis.other`: a second API process over the same database: a revocation must reach it from its next request. */
const t = useWorld({ api: true, apis: { other: {} } });
const w = {} as { company: string; rival: string; owner: { email: string; password: string }; manager: { email: string; password: string }; rivalOwner: { email: string; password: string } };

beforeAll(async () => {
  const db = t.tdb.database.db;
  w.company = await createCompany(db, 'Acme Stays');
  w.rival = await createCompany(db, 'Rival Rentals');
  w.owner = await createUser(db, w.company, { role: 'owner' });
  w.manager = await createUser(db, w.company, { role: 'manager' });
  w.rivalOwner = await createUser(db, w.rival, { role: 'owner' });
});

async function signedIn(who: { email: string; password: string }) {
  const c = new ConsoleClient(t.api.baseUrl);
  const res = await c.signIn(who.email, who.password);
  expect(res.status, res.text.slice(0, 300)).toBe(303);
  return c;
}

const bookingsWith = (api: TestApi, token: string) => api.get('/api/v1/bookings', token);
const tokenRow = async (uid: string) =>
  (await t.tdb.database.db.execute<{ revoked: boolean; last_used_at: number | null }>(
    sql`select revoked, (extract(epoch from last_used_at) * 1000)::float8 as last_used_at from access_tokens where uid = ${uid}`,
  ))[0];

describe('Connected apps', () => {
  it('lists the company’s apps with their scopes and tokens, created and last used, and never another company’s', async () => {
    const db = t.tdb.database.db;
    const mine = await createToken(db, w.company, ['messaging', 'tasks']);
    const theirs = await createToken(db, w.rival, ['messaging']);
    expect((await bookingsWith(t.api, mine.token)).status).toBe(200);
    await expect.poll(async () => (await tokenRow(mine.tokenUid))?.last_used_at).not.toBeNull();
    const c = await signedIn(w.manager);
    const page = await c.get('/app/connected-apps');
    expect(page.status).toBe(200);
    expect(page.text).toContain(mine.tokenUid);
    expect(page.text).toContain('messaging, tasks');
    expect(page.text).not.toContain(theirs.tokenUid);
    // Its last use is shown (a date), not "never".
    const row = page.text.slice(page.text.indexOf(mine.tokenUid));
    expect(row.slice(0, row.indexOf('</tr>'))).toMatch(/\d{4}, \d\d:\d\d UTC<\/td><td>\w{3}, \w{3} \d+, \d{4}, \d\d:\d\d UTC/);
  });

  it('revokes a token: refused at once by every API process, the others of the app untouched', async () => {
    const db = t.tdb.database.db;
    const a = await createToken(db, w.company, ['messaging']);
    const b = await createToken(db, w.company, ['messaging']);
    expect((await bookingsWith(t.apis.other, a.token)).status).toBe(200);
    const c = await signedIn(w.manager);
    const form = ConsoleClient.fields((await c.get('/app/connected-apps')).text);
    const res = await c.post(`/app/connected-apps/tokens/${a.tokenUid}/revoke`, { _csrf: form._csrf! });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/\/app\/connected-apps\?done=revoked$/);
    expect((await c.get('/app/connected-apps?done=revoked')).text).toContain('The token is revoked');
    for (const api of [t.api, t.apis.other]) expect((await bookingsWith(api, a.token)).status).toBe(401);
    expect((await bookingsWith(t.apis.other, b.token)).status).toBe(200);
  });

  it('uninstalls an app: every token of it revoked, the app gone from the list', async () => {
    const db = t.tdb.database.db;
    const first = await createToken(db, w.company, ['tasks']);
    const second = await createToken(db, w.company, ['tasks']);
    await db.execute(sql`update access_tokens set app_uid = ${first.appUid} where uid = ${second.tokenUid}`);
    const c = await signedIn(w.owner);
    const form = ConsoleClient.fields((await c.get('/app/connected-apps')).text);
    const res = await c.post(`/app/connected-apps/${first.appUid}/uninstall`, { _csrf: form._csrf! });
    expect(res.status).toBe(303);
    for (const tok of [first, second]) {
      expect((await tokenRow(tok.tokenUid))?.revoked).toBe(true);
      expect((await bookingsWith(t.apis.other, tok.token)).status).toBe(401);
    }
    expect((await c.get('/app/connected-apps')).text).not.toContain(first.appUid);
  });

  it('refuses another company’s token or app (404, nothing revoked)', async () => {
    const db = t.tdb.database.db;
    const theirs = await createToken(db, w.rival, ['messaging']);
    const c = await signedIn(w.owner);
    const csrf = ConsoleClient.fields((await c.get('/app/connected-apps')).text)._csrf!;
    expect((await c.post(`/app/connected-apps/tokens/${theirs.tokenUid}/revoke`, { _csrf: csrf })).status).toBe(404);
    expect((await c.post(`/app/connected-apps/${theirs.appUid}/uninstall`, { _csrf: csrf })).status).toBe(404);
    // A token's value in place of its uid revokes nothing either.
    expect((await c.post(`/app/connected-apps/tokens/${encodeURIComponent(theirs.token)}/revoke`, { _csrf: csrf })).status).toBe(404);
    expect((await bookingsWith(t.api, theirs.token)).status).toBe(200);
  });

  it('refuses a revoke or uninstall without the session’s CSRF token, or signed out', async () => {
    const tok = await createToken(t.tdb.database.db, w.company, ['messaging']);
    const c = await signedIn(w.owner);
    expect((await c.post(`/app/connected-apps/tokens/${tok.tokenUid}/revoke`, {})).status).toBe(403);
    expect((await c.post(`/app/connected-apps/${tok.appUid}/uninstall`, { _csrf: 'forged' })).status).toBe(403);
    const stranger = new ConsoleClient(t.api.baseUrl);
    const csrf = ConsoleClient.fields((await stranger.get('/app/login.html')).text)._csrf!;
    expect((await stranger.post(`/app/connected-apps/tokens/${tok.tokenUid}/revoke`, { _csrf: csrf })).status).toBe(401);
    expect((await tokenRow(tok.tokenUid))?.revoked).toBe(false);
  });
});

describe('last used', () => {
  it('is written at most once a minute per token, not on every request', async () => {
    const tok = await createToken(t.tdb.database.db, w.company, ['messaging']);
    expect((await bookingsWith(t.api, tok.token)).status).toBe(200);
    await expect.poll(async () => (await tokenRow(tok.tokenUid))?.last_used_at).not.toBeNull();
    const first = (await tokenRow(tok.tokenUid))!.last_used_at!;
    for (let i = 0; i < 3; i++) for (const api of [t.api, t.apis.other]) expect((await bookingsWith(api, tok.token)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect((await tokenRow(tok.tokenUid))!.last_used_at!).toBe(first);
    // A minute later (the stamp moved back), the next request writes it again.
    await t.tdb.database.db.execute(sql`update access_tokens set last_used_at = now() - interval '61 seconds' where uid = ${tok.tokenUid}`);
    const aged = (await tokenRow(tok.tokenUid))!.last_used_at!;
    t.api.ctx.services.tokens.noteUse(tok.tokenUid, Date.now() + 61_000);
    await expect.poll(async () => (await tokenRow(tok.tokenUid))!.last_used_at!).toBeGreaterThan(aged);
  });
});

describe('Developer apps', () => {
  it('is for owners: a manager is refused the page and the form', async () => {
    const c = await signedIn(w.manager);
    expect((await c.get('/app/developer-apps')).status).toBe(403);
    const csrf = ConsoleClient.fields((await c.get('/app/connected-apps')).text)._csrf!;
    const res = await c.post('/app/developer-apps', { _csrf: csrf, name: 'Sneaky', redirect_uris: 'https://x.example/cb', scopes: 'messaging' });
    expect(res.status).toBe(403);
    expect(await t.tdb.database.db.select().from(oauthClients).where(eq(oauthClients.name, 'Sneaky'))).toEqual([]);
  });

  it('registers a client with its redirect URIs and scopes, shows the secret once and keeps only its hash', async () => {
    const c = await signedIn(w.owner);
    const csrf = ConsoleClient.fields((await c.get('/app/developer-apps')).text)._csrf!;
    const body = new URLSearchParams({ _csrf: csrf, name: 'Price <Bot>', redirect_uris: 'https://pricebot.example/cb\nhttp://localhost:8080/cb', with_secret: 'on' });
    body.append('scopes', 'pricing-management');
    body.append('scopes', 'listings');
    // Two scopes: the form field repeats (the ConsoleClient's form helper sends one value a name).
    const made = await fetch(`${t.api.baseUrl}/app/developer-apps`, {
      method: 'POST',
      headers: { cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
      redirect: 'manual',
    });
    const html = await made.text();
    expect(made.status, html.slice(0, 500)).toBe(200);
    // Escaped, never markup.
    expect(html).toContain('Price &lt;Bot&gt; is registered');
    const clientId = /client_id: <span class="secret">(cli_\w+)<\/span>/.exec(html)?.[1];
    const secret = /client_secret: <span class="secret">([\w-]+)<\/span>/.exec(html)?.[1];
    expect(clientId).toBeDefined();
    expect(secret).toBeDefined();
    const [row] = await t.tdb.database.db.select().from(oauthClients).where(eq(oauthClients.uid, clientId!));
    expect(row).toMatchObject({ name: 'Price <Bot>', ownerCompanyUid: w.company, redirectUris: ['https://pricebot.example/cb', 'http://localhost:8080/cb'], scopes: ['pricing-management', 'listings'], secretHash: sha256(secret!) });
    // Shown once: the page lists the app afterwards without its secret.
    const again = (await c.get('/app/developer-apps')).text;
    expect(again).toContain(clientId!);
    expect(again).not.toContain(secret!);
    // The rival company's owner does not see it.
    const rival = await signedIn(w.rivalOwner);
    expect((await rival.get('/app/developer-apps')).text).not.toContain(clientId!);
  });

  it('refuses a bad registration, naming each problem, and stores nothing', async () => {
    const c = await signedIn(w.owner);
    const csrf = ConsoleClient.fields((await c.get('/app/developer-apps')).text)._csrf!;
    const before = (await t.tdb.database.db.select().from(oauthClients)).length;
    const res = await c.post('/app/developer-apps', { _csrf: csrf, name: '', redirect_uris: 'javascript:alert(1)\nhttps://ok.example/cb#frag\n/relative', scopes: 'root' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Name: between 1 and 100 characters.');
    expect(res.text).toContain('Redirect URI javascript:alert(1) must be an http(s) URL without a #fragment.');
    expect(res.text).toContain('Redirect URI https://ok.example/cb#frag must be an http(s) URL without a #fragment.');
    expect(res.text).toContain('Redirect URI /relative is not an absolute URL.');
    expect(res.text).toContain('Scopes: only the scopes listed.');
    expect((await t.tdb.database.db.select().from(oauthClients)).length).toBe(before);
    expect((await c.post('/app/developer-apps', { name: 'No CSRF', redirect_uris: 'https://x.example/cb', scopes: 'listings' })).status).toBe(403);
  });
});

describe('the demo app’s callback page', () => {
  it('shows the code and the exact exchange, escaped; a refusal as such; nothing as 400', async () => {
    const page = await fetch(`${t.api.baseUrl}/app/oauth-demo/callback?code=${encodeURIComponent('<b>c0de</b>')}&state=xyz`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('&lt;b&gt;c0de&lt;/b&gt;');
    expect(html).not.toContain('<b>c0de</b>');
    expect(html).toContain(`/auth/token?grant_type=authorization_code&amp;client_id=cli_demo&amp;redirect_uri=${encodeURIComponent(`${t.api.baseUrl}/app/oauth-demo/callback`)}`);
    const denied = await fetch(`${t.api.baseUrl}/app/oauth-demo/callback?error=access_denied&state=xyz`);
    expect(await denied.text()).toContain('The app was not connected: access_denied.');
    expect((await fetch(`${t.api.baseUrl}/app/oauth-demo/callback`)).status).toBe(400);
  });
});
