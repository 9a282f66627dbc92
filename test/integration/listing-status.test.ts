import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { scopes as allScopes } from '../../shared/domain/auth/index.js';
import { listings } from '../../shared/infra/db/schema/index.js';
import { createCompany, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { createInventory } from '../support/inventory.js';
import { waitForFinal } from '../support/pipeline.js';

/* POST /api/v1/set-listing-status: a second kind of request through the calendar's pipeline. */

const PATH = '/api/v1/set-listing-status';
const w = useWorld({ queue: 'redis', seed: { scopes: ['listings'] } });

const statusOf = async (company: string, uid: string) =>
  (await w.tdb.database.db.select({ s: listings.status }).from(listings).where(and(eq(listings.companyUid, company), eq(listings.uid, uid))))[0]?.s;

describe('set-listing-status', () => {
  it('queues a listing_status request, polled with get-request-status, applied by its own job', async () => {
    await createInventory(w.tdb.database.db, w.company, 3, 'a');
    const res = await w.p.api.post(PATH, { listing_uid: 'li_a000', status: 'unlisted' }, w.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const uid = res.body.data.request_uid as string;
    // No worker yet: queued, nothing changed.
    const queued = await w.p.api.get(`/api/v1/get-request-status?request_uid=${uid}`, w.token);
    expect(queued.body.data).toMatchObject({ request_status: 'queued', days_total: 1 });
    expect(await statusOf(w.company, 'li_a000')).toBe('listed');
    await w.p.startWorkers(1);
    const [done] = await waitForFinal(w.p.api, w.token, [uid]);
    expect(done).toMatchObject({ request_status: 'completed', days_applied: 1 });
    expect(await statusOf(w.company, 'li_a000')).toBe('unlisted');
    const listed = (await w.p.api.get('/api/v1/listings?listing_uids=li_a000', w.token)).body.data[0];
    expect(listed.listing_status).toBe('unlisted');
  });

  it('changes every listing of a property, active/inactive read as listed/unlisted', async () => {
    const db = w.tdb.database.db;
    await createInventory(db, w.company, 2, 'b');
    await db.insert(listings).values({ uid: 'li_b000x', companyUid: w.company, propertyUid: 'pr_b000', platformType: 'airbnb', name: 'Second', hostUid: 'ho_b000' });
    const off = await w.p.api.post(PATH, { property_uid: 'pr_b000', status: 'inactive' }, w.token);
    const [s] = await waitForFinal(w.p.api, w.token, [off.body.data.request_uid]);
    expect(s).toMatchObject({ request_status: 'completed', days_total: 2, property_uid: 'pr_b000' });
    expect([await statusOf(w.company, 'li_b000'), await statusOf(w.company, 'li_b000x'), await statusOf(w.company, 'li_b001')]).toEqual(['unlisted', 'unlisted', 'listed']);
    const on = await w.p.api.post(PATH, { property_uid: 'pr_b000', status: 'active' }, w.token);
    await waitForFinal(w.p.api, w.token, [on.body.data.request_uid]);
    expect(await statusOf(w.company, 'li_b000x')).toBe('listed');
  });

  it('ends as the later submission says, whatever order the jobs run in', async () => {
    await createInventory(w.tdb.database.db, w.company, 1, 'c');
    await w.p.stopWorkers();
    const first = await w.p.api.post(PATH, { listing_uid: 'li_c000', status: 'unlisted' }, w.token);
    const second = await w.p.api.post(PATH, { listing_uid: 'li_c000', status: 'listed' }, w.token);
    // The later request applied first, then the earlier one: the earlier one changes nothing.
    await w.p.ctx.services.listingStatus.apply(second.body.data.request_uid);
    await w.p.ctx.services.listingStatus.apply(first.body.data.request_uid);
    expect(await statusOf(w.company, 'li_c000')).toBe('listed');
  });

  it('refuses bad input with code 11 naming the parameter', async () => {
    for (const [body, param] of [
      [{ status: 'listed' }, 'listing_uid'],
      [{ listing_uid: 'li_a000', status: 'gone' }, 'status'],
      [{ listing_uid: 'li_a000' }, 'status'],
      [{ listing_uid: '', status: 'listed' }, 'listing_uid'],
    ] as const) {
      const res = await w.p.api.post(PATH, body, w.token);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 11, param });
    }
  });

  it("answers another company's listing or property exactly as an unknown one", async () => {
    const db = w.tdb.database.db;
    const other = await createCompany(db);
    await createInventory(db, other, 1, 'z');
    const foreign = await w.p.api.post(PATH, { listing_uid: 'li_z000', status: 'listed' }, w.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toEqual({ code: 11, message: 'Unknown listing_uid li_z000', param: 'listing_uid' });
    const foreignProperty = await w.p.api.post(PATH, { property_uid: 'pr_z000', status: 'listed' }, w.token);
    expect(foreignProperty.status).toBe(404);
    expect(foreignProperty.body.error.code).toBe(11);
    const wrongPair = await w.p.api.post(PATH, { listing_uid: 'li_a000', property_uid: 'pr_a001', status: 'listed' }, w.token);
    expect(wrongPair.status).toBe(404);
  });

  it('needs listings: every other scope is refused (code 14)', async () => {
    const token = (await createToken(w.tdb.database.db, w.company, allScopes.filter((s) => s !== 'listings'))).token;
    const res = await w.p.api.post(PATH, { listing_uid: 'li_a000', status: 'listed' }, token);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe(14);
  });
});
