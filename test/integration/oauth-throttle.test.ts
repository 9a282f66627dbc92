import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';

/*
 * Issue 39 L2: wrong client secrets at /auth/token count against the address's failed-
 * authentication allowance (AUTH_FAILURES_PER_MINUTE, the API's `authfail:<ip>`).
 */

const world = useWorld({ api: true, env: { AUTH_FAILURES_PER_MINUTE: '3' } });
let client: { clientId: string; clientSecret?: string };

beforeAll(async () => {
  client = await world.api.ctx.services.oauth.createClient({ name: 'Pricing Bot', redirectUris: ['https://app.example.test/cb'], withSecret: true });
});

/** GET from a given loopback address (127.0.0.0/8 all reach the server on Linux). */
function getFrom(localAddress: string, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${world.api.baseUrl}${path}`, { localAddress }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
      })
      .on('error', reject);
  });
}

const exchange = (secret: string) =>
  `/auth/token?${new URLSearchParams({ grant_type: 'authorization_code', code: 'c0de', redirect_uri: 'https://app.example.test/cb', client_id: client.clientId, client_secret: secret }).toString()}`;

describe('/auth/token and the failed-authentication allowance', () => {
  it('answers 429 with Retry-After past the allowance of wrong secrets, to that address only', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await getFrom('127.0.0.3', exchange(`guess-${i}`))).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const blocked = await getFrom('127.0.0.3', exchange(client.clientSecret!));
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toMatch(/^Too many failed authentications from this address: retry after \d+ s$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The same allowance as the API's: a bad token from that address is 429 too.
    expect((await getFrom('127.0.0.3', `/api/v1/tasks?access_token=guess-${'x'.repeat(30)}`)).status).toBe(429);
    // Another address is answered as before.
    expect((await getFrom('127.0.0.4', exchange('guess'))).body).toEqual({ error: 'Incorrect application credentials' });
  });

  it('does not count an invalid code with the right secret (the client authenticated)', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await getFrom('127.0.0.5', exchange(client.clientSecret!))).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
  });
});
