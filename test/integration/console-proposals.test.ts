import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { properties } from '../../shared/infra/db/schema/index.js';
import { ConsoleClient, createUser } from '../support/console.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates } from '../support/pipeline.js';

/*
 * The console's Proposals page over plain HTTP: the list beside current values, approve the ticked
 * dates (the reviewer is the user's email), a second decision refused with the service's 409, the
 * tenant wall (another company's proposal answers 404 and stays pending), the CSRF guard, bad input
 * as a clear 400. The browser test (console-proposals-browser) covers the use.
 */

const w = useWorld({ queue: 'redis', seed: { scopes: ['pricing-management'] } });
const db = () => w.tdb.database.db;
const s = {} as { manager: { email: string; password: string }; rival: string; rivalToken: string; rivalProperty: string };
const dates = futureDates(4, 10);

/** A property of `company` without calendar control, and a proposal of `days` on it (made with `token`). */
async function propose(company: string, token: string, days: object[], property?: string): Promise<{ property: string; proposal: string }> {
  const prop = property ?? (await createProperty(db(), company, { name: 'Proposal loft' }));
  await db().update(properties).set({ calendarControlAllowed: false }).where(sql`uid = ${prop}`);
  const res = await w.p.api.post('/api/v1/calendar-batch', { property_uid: prop, days }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [row] = await db().execute<{ proposal_uid: string }>(sql`select proposal_uid from calendar_requests where uid = ${res.body.data.request_uids[0]}`);
  return { property: prop, proposal: row!.proposal_uid };
}
const proposal = async (uid: string) =>
  (await db().execute<{ status: string; decided_by: string | null }>(sql`select status, decided_by from calendar_proposals where uid = ${uid}`))[0]!;

beforeAll(async () => {
  s.manager = await createUser(db(), w.company, { role: 'manager' });
  s.rival = await createCompany(db(), 'Rival Rentals');
  s.rivalToken = (await createToken(db(), s.rival, ['pricing-management'])).token;
});

async function signedIn() {
  const c = new ConsoleClient(w.p.api.baseUrl);
  expect((await c.signIn(s.manager.email, s.manager.password)).status).toBe(303);
  return c;
}

describe('the Proposals page', () => {
  it('lists a pending proposal beside the current values and approves the ticked dates', async () => {
    const { proposal: uid } = await propose(w.company, w.token, [
      { date: dates[0], price: 180, currency: 'EUR' },
      { date: dates[1], min_stay: 3 },
      { date: dates[2], is_available: 0, notes: 'deep clean' },
    ]);
    const c = await signedIn();
    const page = await c.get('/app/proposals');
    expect(page.status).toBe(200);
    expect(page.text).toContain(uid);
    expect(page.text).toMatch(/no price<\/span> → <strong>€180\.00<\/strong>/);
    expect(page.text).toMatch(/<span class="was">1<\/span> → <strong>3<\/strong>/);
    expect(page.text).toMatch(/<span class="was">available<\/span> → <strong>blocked<\/strong>/);
    expect(page.text).toContain(`<input type="checkbox" name="dates" value="${dates[0]}" checked=""/> ${dates[0]}</label>`);
    const csrf = ConsoleClient.fields(page.text)._csrf!;
    const res = await c.request('POST', `/app/proposals/${uid}/approve`, undefined, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(403);
    const body = new URLSearchParams([['_csrf', csrf], ['approve', 'selected'], ['dates', dates[0]!], ['dates', dates[2]!]]).toString();
    const ok = await fetch(`${w.p.api.baseUrl}/app/proposals/${uid}/approve`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/app/proposals?done=partly_approved');
    expect(await proposal(uid)).toEqual({ status: 'partly_approved', decided_by: s.manager.email });
    const after = await c.get('/app/proposals?done=partly_approved');
    expect(after.text).toContain('The ticked days are approved');
    expect(after.text).not.toContain(uid);
    const again = await c.post(`/app/proposals/${uid}/reject`, { _csrf: csrf });
    expect(again.status).toBe(409);
    expect(again.text).toContain(`Proposal ${uid} is not pending (it is partly_approved)`);
    expect((await proposal(uid)).status).toBe('partly_approved');
  });

  it('shows a hostile note as text', async () => {
    const { proposal: uid } = await propose(w.company, w.token, [{ date: dates[3], notes: '<img src=x onerror=alert(1)>' }]);
    const c = await signedIn();
    const page = await c.get('/app/proposals');
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.text).not.toContain('<img');
    const res = await c.post(`/app/proposals/${uid}/reject`, { _csrf: ConsoleClient.fields(page.text)._csrf! });
    expect(res.location).toMatch(/\/app\/proposals\?done=rejected$/);
    expect((await proposal(uid)).status).toBe('rejected');
  });
});

describe('the wall, CSRF and bad input', () => {
  it("answers another company's proposal as unknown (404) and leaves it pending", async () => {
    const { proposal: theirs } = await propose(s.rival, s.rivalToken, [{ date: dates[0], price: 99, currency: 'USD' }]);
    const c = await signedIn();
    const page = await c.get('/app/proposals');
    expect(page.text).not.toContain(theirs);
    const csrf = ConsoleClient.fields(page.text)._csrf!;
    for (const [verb, form] of [['approve', { approve: 'all' }], ['approve', { approve: 'selected', dates: dates[0]! }], ['reject', {}]] as const) {
      const res = await c.post(`/app/proposals/${theirs}/${verb}`, { _csrf: csrf, ...form });
      expect(res.status, verb).toBe(404);
      expect(res.text).toContain(`Unknown proposal ${theirs}`);
    }
    expect(await proposal(theirs)).toEqual({ status: 'pending', decided_by: null });
  });

  it('refuses a POST without the session’s token or with a forged one (403), changing nothing', async () => {
    const { proposal: uid } = await propose(w.company, w.token, [{ date: dates[1], price: 120, currency: 'USD' }]);
    const c = await signedIn();
    for (const verb of ['approve', 'reject']) {
      expect((await c.post(`/app/proposals/${uid}/${verb}`, { approve: 'all' })).status).toBe(403);
      expect((await c.post(`/app/proposals/${uid}/${verb}`, { _csrf: 'forged', approve: 'all' })).status).toBe(403);
    }
    const stranger = new ConsoleClient(w.p.api.baseUrl);
    expect((await stranger.post(`/app/proposals/${uid}/reject`, { _csrf: await stranger.csrf() })).status).toBe(401);
    expect((await proposal(uid)).status).toBe('pending');
  });

  it('answers bad input with a clear 400, changing nothing', async () => {
    const { proposal: uid } = await propose(w.company, w.token, [{ date: dates[2], price: 130, currency: 'USD' }]);
    const c = await signedIn();
    const csrf = await c.csrf('/app/proposals');
    const cases: [string, Record<string, string>, string][] = [
      [uid, { approve: 'some' }, 'approve must be all or selected'],
      [uid, { approve: 'selected' }, 'Tick at least one date to approve'],
      [uid, { approve: 'selected', dates: '2030-1-1' }, 'dates must be YYYY-MM-DD'],
      [uid, { approve: 'selected', dates: '2099-01-01' }, `2099-01-01 is not a date of proposal ${uid}`],
      ['not-a-proposal', { approve: 'all' }, 'proposal_uid must be a proposal uid'],
    ];
    for (const [target, form, message] of cases) {
      const res = await c.post(`/app/proposals/${target}/approve`, { _csrf: csrf, ...form });
      expect(res.status, message).toBe(400);
      expect(res.text).toContain(message);
    }
    expect((await proposal(uid)).status).toBe('pending');
  });
});
