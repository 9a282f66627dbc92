import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { revokeToken, type Scope, setAppDisabled } from '../../shared/domain/auth/index.js';
import { redisRateLimiter } from '../../shared/infra/ratelimit/rate-limiter.js';
import type { TestDatabase } from '../support/db.js';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';

const world = useWorld({ api: true });

async function companyWithBooking(on: TestDatabase = world.tdb) {
  const db = on.database.db;
  const companyUid = await createCompany(db);
  const propertyUid = await createProperty(db, companyUid);
  await createBookings(db, [bookingRow(companyUid, propertyUid)]);
  return { companyUid, token: (scopes: Scope[]) => createToken(db, companyUid, scopes) };
}

function expectError(res: { status: number; body: any }, status: number, code: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body).not.toHaveProperty('data');
}

/**
 * Counters are per fixed minute. A test that must see N requests land in one window waits out the
 * last seconds of a nearly finished one instead of failing when it straddles the boundary.
 */
async function atStartOfMinuteWindow(needMs = 5000) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 50));
}

describe('authentication', () => {
  it('answers 401 code 12 without a token', async () => {
    expectError(await world.api.get('/api/v1/bookings'), 401, 12);
  });

  it('answers 401 code 12 to an empty or a repeated access_token, even when one of them is valid', async () => {
    const { token } = await companyWithBooking();
    const valid = (await token(['messaging'])).token;
    expectError(await world.api.get('/api/v1/bookings?access_token='), 401, 12);
    expectError(await world.api.get(`/api/v1/bookings?access_token=${valid}&access_token=${valid}`), 401, 12);
    expect((await world.api.get(`/api/v1/bookings?access_token=${valid}`)).status).toBe(200);
  });

  it('answers 401 code 12 for a token nobody issued', async () => {
    expectError(await world.api.get('/api/v1/bookings', 'not-a-real-token'), 401, 12);
    expectError(await world.api.get('/api/v1/bookings', 'x'.repeat(600)), 401, 12);
  });

  it('answers 401 code 12 once the token is revoked', async () => {
    const co = await companyWithBooking();
    const { token, tokenUid } = await co.token(['messaging']);
    expect((await world.api.get('/api/v1/bookings', token)).status).toBe(200);
    expect(await revokeToken(world.tdb.database.db, co.companyUid, tokenUid)).toBe(true);
    expectError(await world.api.get('/api/v1/bookings', token), 401, 12);
  });

  it('accepts the token as Authorization: Bearer', async () => {
    const co = await companyWithBooking();
    const { token } = await co.token(['messaging']);
    const res = await fetch(`${world.api.baseUrl}/api/v1/bookings`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data).toHaveLength(1);
    const wrong = await fetch(`${world.api.baseUrl}/api/v1/bookings`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
  });

  it('reads the Bearer scheme in any case with spaces around the token, and only a whole header', async () => {
    const co = await companyWithBooking();
    const { token } = await co.token(['messaging']);
    const status = async (authorization: string, query = '') =>
      (await fetch(`${world.api.baseUrl}/api/v1/bookings${query}`, { headers: { authorization } })).status;
    expect(await status(`bearer   ${token}  `)).toBe(200);
    expect(await status(`BEARER ${token}`)).toBe(200);
    expect(await status(`xBearer ${token}`)).toBe(401);
    expect(await status(`Bearer ${token} extra`)).toBe(401);
    expect(await status(`Bearer${token}`)).toBe(401);
    // Another scheme, or Bearer without a token, leaves the query's access_token to decide.
    expect(await status('Basic dXNlcjpwYXNz', `?access_token=${token}`)).toBe(200);
    expect(await status('Bearer ', `?access_token=${token}`)).toBe(200);
  });

  it('says why in the message of each refusal', async () => {
    const co = await companyWithBooking();
    const { token, appUid } = await co.token(['tasks']);
    expect((await world.api.get('/api/v1/bookings')).body.error.message).toBe('Access token is missing or invalid');
    expect((await world.api.get('/api/v1/bookings', 'nope')).body.error.message).toBe('Access token is missing or invalid');
    expect((await world.api.get('/api/v1/bookings', token)).body.error.message).toBe(
      'This method requires one of the scopes: messaging, pricing-management, smart-locks, external-cleaning-management',
    );
    await setAppDisabled(world.tdb.database.db, co.companyUid, appUid, true);
    expect((await world.api.get('/api/v1/bookings', token)).body.error.message).toBe('The application behind this token is disabled');
  });

  it('answers 403 code 13 while the app behind the token is disabled', async () => {
    const co = await companyWithBooking();
    const { token, appUid } = await co.token(['messaging']);
    await setAppDisabled(world.tdb.database.db, co.companyUid, appUid, true);
    expectError(await world.api.get('/api/v1/bookings', token), 403, 13);
    await setAppDisabled(world.tdb.database.db, co.companyUid, appUid, false);
    expect((await world.api.get('/api/v1/bookings', token)).status).toBe(200);
  });
});

describe('scopes of GET /api/v1/bookings', () => {
  it.each<Scope[]>([['tasks'], ['calendar-control', 'listings', 'direct-bookings'], []])(
    'answers 403 code 14 to a token with only %j',
    async (...scopes) => {
      const co = await companyWithBooking();
      const { token } = await co.token(scopes);
      const res = await world.api.get('/api/v1/bookings', token);
      expectError(res, 403, 14);
      expect(res.body.error.message).toContain('smart-locks');
    },
  );

  it.each<Scope>(['messaging', 'pricing-management', 'smart-locks', 'external-cleaning-management'])(
    'lets a token with only %s list bookings',
    async (scope) => {
      const co = await companyWithBooking();
      const { token } = await co.token([scope]);
      const res = await world.api.get('/api/v1/bookings', token);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(1);
    },
  );
});

describe('error envelope', () => {
  it('answers an unknown path with 404 code 11, token or not', async () => {
    const co = await companyWithBooking();
    const { token } = await co.token(['messaging']);
    for (const res of [await world.api.get('/api/v1/nope', token), await world.api.get('/api/v1/nope'), await world.api.get('/elsewhere')]) {
      expectError(res, 404, 11);
    }
  });

  it('answers a malformed JSON body with 400 code 11', async () => {
    const { token } = await (await companyWithBooking()).token(['calendar-control']);
    const res = await world.api.post('/api/v1/set-calendar-batch', '{"days": [', token);
    expectError(res, 400, 11);
    expect(res.body.error.param).toBe('body');
  });

  it('answers a body over the limit with 413 code 11', async () => {
    const small = await world.startApi({ env: { BODY_LIMIT_BYTES: '1024' } });
    const { token } = await (await companyWithBooking()).token(['calendar-control']);
    try {
      const res = await small.post('/api/v1/set-calendar-batch', { notes: 'x'.repeat(4096) }, token);
      expectError(res, 413, 11);
      expect(res.body.error.param).toBe('body');
      // Just under the limit is read (and then meets the schema: no property_uid).
      expectError(await small.post('/api/v1/set-calendar-batch', { notes: 'x'.repeat(900) }, token), 400, 11);
    } finally {
      await small.close();
    }
  });

  it('answers an unexpected failure with 500 code 0 and a message that leaks nothing', async () => {
    const broken = await world.database();
    const brokenApi = await world.startApi({}, broken);
    try {
      const co = await companyWithBooking(broken);
      const { token } = await co.token(['messaging']);
      await broken.database.db.execute('drop table bookings cascade');
      const res = await brokenApi.get('/api/v1/bookings', token);
      expectError(res, 500, 0);
      expect(res.body.error.message).toBe('Internal error');
      expect(JSON.stringify(res.body)).not.toMatch(/bookings|relation|select|exist/i);
    } finally {
      await brokenApi.close();
      await broken.drop();
    }
  });

  it('answers 503 code 15 when the database cannot be reached', async () => {
    const gone = await world.database();
    const goneApi = await world.startApi({}, gone);
    try {
      const co = await companyWithBooking(gone);
      const { token } = await co.token(['messaging']);
      expect((await goneApi.get('/api/v1/bookings', token)).status).toBe(200);
      await gone.database.close();
      const res = await goneApi.get('/api/v1/bookings', token);
      expectError(res, 503, 15);
      expect(JSON.stringify(res.body)).not.toMatch(/CONNECTION|select/i);
    } finally {
      await goneApi.close();
      await gone.drop();
    }
  });
});

describe('rate limit', () => {
  it('answers the 4th request of a minute with 429 code 16, Retry-After and RateLimit, per token', async () => {
    const limited = await world.startApi({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const co = await companyWithBooking();
      const first = (await co.token(['messaging'])).token;
      const second = (await co.token(['messaging'])).token;
      await atStartOfMinuteWindow();
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await limited.get('/api/v1/bookings', first);
        expect(res.status).toBe(200);
        remaining.push(/remaining=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1] ?? null);
      }
      expect(remaining).toEqual(['2', '1', '0']);

      const denied = await limited.get('/api/v1/bookings', first);
      expectError(denied, 429, 16);
      const retryAfter = Number(denied.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      expect(denied.headers.get('ratelimit')).toMatch(/^limit=3, remaining=0, reset=\d+$/);
      expect(denied.headers.get('ratelimit-policy')).toBe('3;w=60');

      // Another token of the same company has its own counter.
      expect((await limited.get('/api/v1/bookings', second)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('lets requests through uncounted, without hanging, when the shared counter in Redis cannot be reached', async () => {
    // Port 1: nothing listens. maxRetriesPerRequest null, as for BullMQ, makes commands wait forever.
    const redis = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: null, retryStrategy: () => 200 });
    redis.on('error', () => {});
    const noRedis = await world.startApi({ rateLimiter: redisRateLimiter(redis, 1000, 'unreachable') });
    try {
      const co = await companyWithBooking();
      const { token } = await co.token(['messaging']);
      const started = Date.now();
      const res = await noRedis.get('/api/v1/bookings', token);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await noRedis.close();
      redis.disconnect();
    }
  });
});
