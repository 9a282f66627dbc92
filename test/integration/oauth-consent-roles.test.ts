import { describe, expect, it } from 'vitest';
import { runCli } from '../../bin/cli/main.js';
import { ConsoleClient, createUser } from '../support/console.js';
import { createCompany } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * Issue 39: only owners install apps on the consent page, as only owners register them; a company
 * setting (`company set --managers-install-apps true`) lets its managers too.
 */

const t = useWorld({ api: true });
const REDIRECT = 'https://app.example.test/callback';

const cli = async (...args: string[]) => {
  let stdout = '';
  const code = await runCli(args, { env: { DATABASE_URL: t.tdb.url }, io: { result: (l) => (stdout += `${l}\n`), note: () => undefined } });
  return { code, stdout };
};

async function world() {
  const db = t.tdb.database.db;
  const company = await createCompany(db, 'Acme Stays');
  const manager = await createUser(db, company, { role: 'manager' });
  const owner = await createUser(db, company, { role: 'owner' });
  const client = await t.api.ctx.services.oauth.createClient({ name: 'Channel Sync', redirectUris: [REDIRECT], scopes: ['messaging'], withSecret: false });
  const url = `/app/auth.html?${new URLSearchParams({ client_id: client.clientId, redirect_uri: REDIRECT, scope: 'messaging', state: 's' }).toString()}`;
  const installed = async () => (await t.tdb.database.sql<{ n: number }[]>`select count(*)::int as n from apps where company_uid = ${company}`)[0]!.n;
  return { company, manager, owner, client, url, installed };
}

async function signedIn(who: { email: string; password: string }) {
  const c = new ConsoleClient(t.api.baseUrl);
  expect((await c.signIn(who.email, who.password)).status).toBe(303);
  return c;
}

describe('the consent page and roles', () => {
  it('refuses a manager (page and a forged Allow: 403, nothing installed), lets a manager Deny, lets the owner Allow', async () => {
    const w = await world();
    const m = await signedIn(w.manager);
    const page = await m.get(w.url);
    expect(page.status).toBe(403);
    expect(page.text).toContain('Only an owner of Acme Stays can install apps');
    const forged = await m.post('/app/auth.html', { _csrf: await m.csrf('/app/'), client_id: w.client.clientId, redirect_uri: REDIRECT, scope: 'messaging', state: 's', decision: 'allow' });
    expect(forged.status).toBe(403);
    expect(forged.location).toBeUndefined();
    const denied = await m.post('/app/auth.html', { _csrf: await m.csrf('/app/'), client_id: w.client.clientId, redirect_uri: REDIRECT, scope: 'messaging', state: 's', decision: 'deny' });
    expect(denied.location).toBe(`${REDIRECT}?error=access_denied&state=s`);
    expect(await w.installed()).toBe(0);
    const o = await signedIn(w.owner);
    const ownPage = await o.get(w.url);
    expect(ownPage.status).toBe(200);
    const allowed = await o.post('/app/auth.html', { ...ConsoleClient.fields(ownPage.text), decision: 'allow' });
    expect(allowed.location).toMatch(/\?code=[\w-]+&state=s$/);
    expect(await w.installed()).toBe(1);
  });

  it('lets managers install once the company allows it (CLI company set), and not after it is turned off', async () => {
    const w = await world();
    expect((await cli('company', 'set', '--company', w.company, '--managers-install-apps', 'true')).code).toBe(0);
    const m = await signedIn(w.manager);
    const page = await m.get(w.url);
    expect(page.status).toBe(200);
    const allowed = await m.post('/app/auth.html', { ...ConsoleClient.fields(page.text), decision: 'allow' });
    expect(allowed.location).toMatch(/\?code=[\w-]+&state=s$/);
    expect((await cli('company', 'set', '--company', w.company, '--managers-install-apps', 'false')).code).toBe(0);
    expect((await m.get(w.url)).status).toBe(403);
    expect((await cli('company', 'set', '--company', w.company, '--managers-install-apps', 'maybe')).code).toBe(2);
    expect((await cli('company', 'set', '--company', 'co_nope', '--managers-install-apps', 'true')).code).toBe(1);
  });
});
