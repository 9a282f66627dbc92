import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient, createUser } from '../support/console.js';
import { createCompany } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/* docs/api.md "Apps connect themselves": /app/auth.html and /auth/token, and their attacks. */

const w = useWorld({ api: true, apis: { second: {} } });
let company: string;
let user: { email: string; password: string };
let pub: { clientId: string };
let conf: { clientId: string; clientSecret?: string };
const REDIRECT = 'https://app.example.test/callback';

beforeAll(async () => {
  company = await createCompany(w.tdb.database.db, 'Acme Stays');
  user = await createUser(w.tdb.database.db, company);
  pub = await w.api.ctx.services.oauth.createClient({ name: 'Channel Sync', redirectUris: [REDIRECT], scopes: ['messaging', 'tasks'], withSecret: false });
  conf = await w.api.ctx.services.oauth.createClient({ name: 'Pricing Bot', redirectUris: [REDIRECT, 'http://localhost:8080/cb'], withSecret: true });
});

const authUrl = (clientId: string, extra: Record<string, string> = {}) =>
  `/app/auth.html?${new URLSearchParams({ client_id: clientId, redirect_uri: REDIRECT, scope: 'messaging,tasks', state: 's-123', ...extra }).toString()}`;

async function signedIn(): Promise<ConsoleClient> {
  const c = new ConsoleClient(w.api.baseUrl);
  expect((await c.signIn(user.email, user.password)).status).toBe(303);
  return c;
}

/** Opens the consent page and clicks a button; answers the redirect. */
async function decide(c: ConsoleClient, url: string, decision: 'allow' | 'deny', drop: string[] = []) {
  const page = await c.get(url);
  expect(page.status, page.text.slice(0, 300)).toBe(200);
  const fields = ConsoleClient.fields(page.text);
  for (const k of drop) delete fields[k];
  return c.post('/app/auth.html', { ...fields, decision });
}

async function code(clientId = pub.clientId, extra: Record<string, string> = {}): Promise<string> {
  const res = await decide(await signedIn(), authUrl(clientId, extra), 'allow');
  expect(res.status).toBe(302);
  return new URL(res.location!).searchParams.get('code')!;
}

const exchange = (params: Record<string, string>) => w.api.get(`/auth/token?${new URLSearchParams({ grant_type: 'authorization_code', redirect_uri: REDIRECT, ...params }).toString()}`);

describe('the flow', () => {
  it('Allow redirects with code and state; the code buys a token that reads bookings', async () => {
    const c = await signedIn();
    const page = await c.get(authUrl(pub.clientId));
    expect(page.text).toContain('Channel Sync');
    expect(page.text).toContain('Acme Stays');
    expect(page.text).toContain('<strong>messaging</strong>');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' https://app.example.test");
    const res = await c.post('/app/auth.html', { ...ConsoleClient.fields(page.text), decision: 'allow' });
    expect(res.status).toBe(302);
    const loc = new URL(res.location!);
    expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
    expect(loc.searchParams.get('state')).toBe('s-123');
    const answer = await w.api.post('/auth/token', { grant_type: 'authorization_code', code: loc.searchParams.get('code'), redirect_uri: REDIRECT, client_id: pub.clientId });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', scope: 'messaging,tasks' });
    const bookings = await w.api.get('/api/v1/bookings', answer.body.access_token);
    expect(bookings.status).toBe(200);
  });

  it('takes a form-encoded POST and a client secret', async () => {
    const c = await code(conf.clientId);
    const res = await fetch(`${w.api.baseUrl}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: c, redirect_uri: REDIRECT, client_id: conf.clientId, client_secret: conf.clientSecret! }),
    });
    expect(res.status).toBe(200);
  });

  it('Deny redirects with access_denied and the state', async () => {
    const res = await decide(await signedIn(), authUrl(pub.clientId), 'deny');
    expect(res.status).toBe(302);
    expect(res.location).toBe(`${REDIRECT}?error=access_denied&state=s-123`);
  });

  it('sends an unknown or unallowed scope back with invalid_scope', async () => {
    const c = await signedIn();
    for (const scope of ['messaging,nonsense', 'calendar-control', '']) {
      const res = await c.get(authUrl(pub.clientId, { scope }));
      expect(res.status, scope).toBe(302);
      expect(res.location, scope).toBe(`${REDIRECT}?error=invalid_scope&state=s-123`);
    }
  });

  it('asks a signed-out visitor to sign in, then comes back to the authorization', async () => {
    const c = new ConsoleClient(w.api.baseUrl);
    const first = await c.get(authUrl(pub.clientId));
    expect(first.status).toBe(303);
    const next = new URL(first.location!).searchParams.get('next')!;
    const signed = await c.signIn(user.email, user.password, next);
    expect(signed.location).toBe(`${w.api.baseUrl}${authUrl(pub.clientId)}`);
  });
});

describe('attacks', () => {
  it('never redirects to a redirect_uri that is not registered exactly (open redirect)', async () => {
    const c = await signedIn();
    const variants = [
      `${REDIRECT}/../evil`,
      `${REDIRECT}x`,
      `${REDIRECT}?next=https://evil.example`,
      'https://app.example.test:8443/callback',
      'http://app.example.test/callback',
      'https://app.example.test/callback%2F..%2Fevil',
      'https://APP.example.test/callback',
      'https://evil.example/callback',
    ];
    for (const redirect_uri of variants) {
      const res = await c.get(authUrl(pub.clientId, { redirect_uri }));
      expect(res.status, redirect_uri).toBe(400);
      expect(res.location, redirect_uri).toBeUndefined();
      // The form cannot be bent either.
      const post = await c.post('/app/auth.html', { _csrf: await c.csrf('/app/'), client_id: pub.clientId, redirect_uri, scope: 'messaging', decision: 'allow' });
      expect(post.status, redirect_uri).toBe(400);
      expect(post.location, redirect_uri).toBeUndefined();
    }
    const unknown = await c.get(authUrl('cli_nope'));
    expect(unknown.status).toBe(400);
    expect(unknown.location).toBeUndefined();
  });

  it('refuses a consent POST without the session CSRF token (a forged Allow)', async () => {
    const c = await signedIn();
    const page = await c.get(authUrl(pub.clientId));
    expect(page.status).toBe(200);
    const fields = ConsoleClient.fields(page.text);
    delete fields._csrf;
    const res = await c.post('/app/auth.html', { ...fields, decision: 'allow' });
    expect(res.status).toBe(403);
    expect(res.location).toBeUndefined();
  });

  it('a w.apis.second exchange of a code fails and revokes the first token (replay)', async () => {
    const c = await code();
    const first = await exchange({ code: c, client_id: pub.clientId });
    expect(first.status).toBe(200);
    expect((await w.api.get('/api/v1/bookings', first.body.access_token)).status).toBe(200);
    const again = await exchange({ code: c, client_id: pub.clientId });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'Invalid authorization code' });
    expect((await w.api.get('/api/v1/bookings', first.body.access_token)).status).toBe(401);
  });

  it("refuses another client's code, a different redirect_uri, and a code that does not exist", async () => {
    const c = await code();
    expect((await exchange({ code: c, client_id: conf.clientId, client_secret: conf.clientSecret! })).body).toEqual({ error: 'Invalid authorization code' });
    expect((await exchange({ code: c, client_id: pub.clientId, redirect_uri: `${REDIRECT}x` })).body).toEqual({ error: 'Invalid authorization code' });
    expect((await exchange({ code: 'made-up', client_id: pub.clientId })).status).toBe(400);
    // Still unused: the rightful client gets its token.
    expect((await exchange({ code: c, client_id: pub.clientId })).status).toBe(200);
  });

  it('checks PKCE: a wrong or missing verifier fails, the right one passes', async () => {
    const verifier = 'v'.repeat(20) + 'erifier-0123456789-abcdefghij';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const c = await code(pub.clientId, { code_challenge: challenge, code_challenge_method: 'S256' });
    expect((await exchange({ code: c, client_id: pub.clientId, code_verifier: 'wrong-verifier-wrong-verifier-wrong-verifier' })).status).toBe(400);
    expect((await exchange({ code: c, client_id: pub.clientId })).status).toBe(400);
    expect((await exchange({ code: c, client_id: pub.clientId, code_verifier: verifier })).status).toBe(200);
  });

  it('the OAuth service itself refuses a challenge that is not S256 (a caller other than the consent page gets no code)', async () => {
    const client = (await w.api.ctx.services.oauth.checkAuthorization(pub.clientId, REDIRECT)) as { client: Parameters<typeof w.api.ctx.services.oauth.allow>[0]['client'] };
    const [{ uid: userUid }] = (await w.tdb.database.sql`select uid from users where company_uid = ${company} limit 1`) as unknown as [{ uid: string }];
    const base = { client: client.client, redirectUri: REDIRECT, userUid, companyUid: company, scopes: ['tasks' as const] };
    await expect(w.api.ctx.services.oauth.allow({ ...base, codeChallenge: 'x'.repeat(43), codeChallengeMethod: 'plain' })).rejects.toThrow(/not a valid S256 challenge/);
    await expect(w.api.ctx.services.oauth.allow({ ...base, codeChallenge: 'short', codeChallengeMethod: 'S256' })).rejects.toThrow(/not a valid S256 challenge/);
    const page = await (await signedIn()).get(authUrl(pub.clientId, { code_challenge: 'short', code_challenge_method: 'S256' }));
    expect(new URL(page.location!).searchParams.get('error')).toBe('invalid_request');
  });

  it('answers bad credentials and grant types with the iGMS texts', async () => {
    const c = await code(conf.clientId);
    expect(await exchange({ code: c, client_id: conf.clientId, client_secret: 'wrong' })).toMatchObject({ status: 401, body: { error: 'Incorrect application credentials' } });
    expect(await exchange({ code: c, client_id: conf.clientId })).toMatchObject({ status: 401, body: { error: 'Incorrect application credentials' } });
    expect(await exchange({ code: c, client_id: pub.clientId, client_secret: 'x' })).toMatchObject({ status: 401 });
    expect(await exchange({ code: c, client_id: 'cli_unknown' })).toMatchObject({ status: 401 });
    expect(await w.api.get(`/auth/token?grant_type=password&client_id=${pub.clientId}`)).toMatchObject({ status: 400, body: { error: 'Unsupported grant type' } });
  });

  it('a revoked token is refused at once by a w.apis.second API process', async () => {
    const t = (await exchange({ code: await code(), client_id: pub.clientId })).body.access_token as string;
    expect((await w.apis.second.get('/api/v1/bookings', t)).status).toBe(200);
    expect(await w.api.ctx.services.tokens.revoke(company, t)).toBe(true);
    expect((await w.apis.second.get('/api/v1/bookings', t)).status).toBe(401);
  });

  it('installs one app per client and company, reused when authorized again', async () => {
    const rows = await w.tdb.database.sql`select count(*)::int as n from apps where client_uid = ${pub.clientId} and company_uid = ${company}`;
    expect(rows[0]!.n).toBe(1);
  });
});
