import { describe, expect, it } from 'vitest';
import { revokeToken, setAppDisabled } from '../../shared/domain/auth/index.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates } from '../support/pipeline.js';

/*
 * set-calendar-batch takes a token found valid within the last minute from the API process's memory
 * (the accept path's lookup spared). Every test here first uses the token once, so the process
 * remembers it, then revokes it (or disables its app) straight in the database, as another API
 * process or the CLI would, and asks at once: docs/api.md refuses a revoked token "by every API
 * process from its next request", so each answer must be the refusal, and nothing may be stored.
 */

const world = useWorld({ api: true });

async function remembered(opts: { appDisabled?: boolean } = {}) {
  const db = world.tdb.database.db;
  const companyUid = await createCompany(db);
  const propertyUid = await createProperty(db, companyUid);
  const { token, tokenUid, appUid } = await createToken(db, companyUid, ['calendar-control']);
  const days = futureDates(3).map((date) => ({ date, min_stay: 2 }));
  const first = await world.api.post('/api/v1/set-calendar-batch', { property_uid: propertyUid, days }, token, { 'Idempotency-Key': 'first' });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const requestUid = first.body.data.request_uids[0] as string;
  // The status read with the token remembered, before the revocation: answered.
  expect((await world.api.get(`/api/v1/get-request-status?request_uid=${requestUid}`, token)).status).toBe(200);
  if (opts.appDisabled) await setAppDisabled(db, companyUid, appUid, true);
  else expect(await revokeToken(db, companyUid, tokenUid)).toBe(true);
  const stored = async () =>
    (await world.tdb.database.sql<{ n: number }[]>`select count(*)::int as n from calendar_requests where property_uid = ${propertyUid}`)[0]?.n;
  return { token, propertyUid, days, stored, requestUid };
}

const refused = (res: { status: number; body: any }, status = 401, code = 12) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
};

describe('set-calendar-batch with a token remembered by the API process', () => {
  it('refuses a batch once the token is revoked, and stores none of it', async () => {
    const r = await remembered();
    refused(await world.api.post('/api/v1/set-calendar-batch', { property_uid: r.propertyUid, days: r.days }, r.token));
    expect(await r.stored()).toBe(1);
  });

  it('refuses a batch once the app is disabled (403 code 13), and stores none of it', async () => {
    const r = await remembered({ appDisabled: true });
    refused(await world.api.post('/api/v1/set-calendar-batch', { property_uid: r.propertyUid, days: r.days }, r.token), 403, 13);
    expect(await r.stored()).toBe(1);
  });

  it('refuses what writes nothing: a dry run, a batch of past days only, an idempotent replay', async () => {
    const r = await remembered();
    refused(await world.api.post('/api/v1/set-calendar-batch?dry_run=true', { property_uid: r.propertyUid, days: r.days }, r.token));
    refused(await world.api.post('/api/v1/set-calendar-batch', { property_uid: r.propertyUid, days: [{ date: '2020-01-01', min_stay: 2 }] }, r.token));
    refused(await world.api.post('/api/v1/set-calendar-batch', { property_uid: r.propertyUid, days: r.days }, r.token, { 'Idempotency-Key': 'first' }));
    expect(await r.stored()).toBe(1);
  });

  it('answers a revoked token as revoked, not with what the request would have got', async () => {
    const r = await remembered();
    // Unknown property (404), a body that is no batch (400): a revoked token learns neither.
    refused(await world.api.post('/api/v1/set-calendar-batch', { property_uid: 'pr_nosuchproperty', days: r.days }, r.token));
    refused(await world.api.post('/api/v1/set-calendar-batch', { property_uid: r.propertyUid, days: 'all of them' }, r.token));
    expect(await r.stored()).toBe(1);
  });

  it('still accepts with a remembered token that stays valid', async () => {
    const db = world.tdb.database.db;
    const companyUid = await createCompany(db);
    const propertyUid = await createProperty(db, companyUid);
    const { token } = await createToken(db, companyUid, ['calendar-control']);
    for (const n of [1, 2, 3]) {
      const res = await world.api.post('/api/v1/set-calendar-batch', { property_uid: propertyUid, days: futureDates(n).map((date) => ({ date, min_stay: n })) }, token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.request_uids).toHaveLength(1);
    }
  });
});

describe('get-request-status with a token remembered by the API process (its lookup runs beside the read)', () => {
  it('refuses once the token is revoked: neither the statuses, nor whether a uid exists', async () => {
    const r = await remembered();
    refused(await world.api.get(`/api/v1/get-request-status?request_uid=${r.requestUid}`, r.token));
    refused(await world.api.get(`/api/v1/get-request-status?request_uids=${r.requestUid}&wait=1`, r.token));
    refused(await world.api.get('/api/v1/get-request-status?request_uid=rq_nosuchrequest', r.token));
  });

  it('refuses once the app is disabled (403 code 13)', async () => {
    const r = await remembered({ appDisabled: true });
    refused(await world.api.get(`/api/v1/get-request-status?request_uid=${r.requestUid}`, r.token), 403, 13);
  });
});
