import type { Db } from '../../shared/infra/db/client.js';
import { startTestApi, type TestApi } from './api.js';
import type { TestDatabase } from './db.js';
import { ConsoleClient, createUser } from './console.js';

/*
 * The OAuth flow of docs/api.md "Apps connect themselves" for the OpenAPI test (openapi.test.ts):
 * one call per answer the document declares for /app/auth.html and /auth/token. The consent page
 * is HTML (checked by status and type, then marked seen); the token exchange answers JSON.
 */

type Res = { status: number; body: any; headers: Headers };
type Call = (target: TestApi, method: 'GET' | 'POST', path: string, opts?: { token?: string; body?: string; headers?: Record<string, string> }) => Promise<Res>;
type Expect = (method: string, path: string, res: Res, status?: number) => void;

export async function exerciseOAuth(api: TestApi, tdb: TestDatabase, companyUid: string, call: Call, expectDeclared: Expect, seen: Set<string>, check: (ok: boolean, what: string) => void) {
  // A second process whose limiter has no allowance left: the exchange's 429 (issue 39 L2).
  const exhausted = await startTestApi(tdb, { rateLimiter: { hit: (_key, limit = 1) => Promise.resolve({ allowed: false, limit, remaining: 0, resetSeconds: 7 }) } });
  try {
    await exercise(api, tdb.database.db, companyUid, call, expectDeclared, seen, check, exhausted);
  } finally {
    await exhausted.close();
  }
}

async function exercise(api: TestApi, db: Db, companyUid: string, call: Call, expectDeclared: Expect, seen: Set<string>, check: (ok: boolean, what: string) => void, exhausted: TestApi) {
  const redirect = 'https://app.example/cb';
  const client = await api.ctx.services.oauth.createClient({ name: 'OpenAPI App', redirectUris: [redirect], withSecret: true });
  const user = await createUser(db, companyUid, { role: 'owner' });
  const browser = new ConsoleClient(api.baseUrl);
  check((await browser.signIn(user.email, user.password)).status === 303, 'sign-in');
  const authorize = (query: Record<string, string>) => browser.get(`/app/auth.html?${new URLSearchParams(query).toString()}`);
  const html = (status: number, page: { status: number; headers: Headers }) => {
    check(page.status === status, `GET /app/auth.html answered ${page.status}, not ${status}`);
    if (status !== 302) check((page.headers.get('content-type') ?? '').startsWith('text/html'), 'the consent page is HTML');
    seen.add(`get /app/auth.html ${status}`);
  };
  html(200, await authorize({ client_id: client.clientId, redirect_uri: redirect, scope: 'listings', state: 's1' }));
  const refused = await authorize({ client_id: client.clientId, redirect_uri: redirect, scope: 'root', state: 's2' });
  html(302, refused);
  check(refused.headers.get('location') === `${redirect}?error=invalid_scope&state=s2`, 'invalid_scope redirect');
  html(400, await authorize({ client_id: client.clientId, redirect_uri: `${redirect}x`, scope: 'listings' }));

  const row = (await api.ctx.services.oauth.findClient(client.clientId))!;
  const code = () => api.ctx.services.oauth.allow({ client: row, redirectUri: redirect, userUid: user.uid, companyUid, scopes: ['listings'] });
  const params = async (secret = client.clientSecret!) => ({ grant_type: 'authorization_code', code: await code(), redirect_uri: redirect, client_id: client.clientId, client_secret: secret });
  for (const method of ['GET', 'POST'] as const) {
    const send = (p: Record<string, string>) =>
      method === 'GET' ? call(api, 'GET', `/auth/token?${new URLSearchParams(p).toString()}`) : call(api, 'POST', '/auth/token', { body: JSON.stringify(p) });
    const p = await params();
    const issued = await send(p);
    expectDeclared(method, '/auth/token', issued, 200);
    check((await call(api, 'GET', '/api/v1/listings', { token: issued.body.access_token })).status === 200, 'the issued token works');
    expectDeclared(method, '/auth/token', await send(p), 400);
    expectDeclared(method, '/auth/token', await send(await params('not-the-secret')), 401);
    const p429 = await params('not-the-secret');
    const limited = method === 'GET' ? await call(exhausted, 'GET', `/auth/token?${new URLSearchParams(p429).toString()}`) : await call(exhausted, 'POST', '/auth/token', { body: JSON.stringify(p429) });
    expectDeclared(method, '/auth/token', limited, 429);
  }
}
