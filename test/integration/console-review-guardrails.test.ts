import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient, createUser } from '../support/console.js';
import { createCompany, createProperty } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates } from '../support/pipeline.js';
import { proposalProperty, proposalStatus, proposeDays } from '../support/review.js';

/*
 * The review's guardrails over plain HTTP (issue 42): marks beyond the company's threshold and
 * under the property's minimum, the service refusing a marked date approved without its tick
 * (whatever posts the form), the confirmation step of "Approve all", the minimum price form and
 * the owners' company settings (zone, threshold), bad input answered with the form again (400).
 */

const w = useWorld({ queue: 'redis', seed: { scopes: ['pricing-management'] } });
const db = () => w.tdb.database.db;
const s = {} as { owner: { email: string; password: string }; manager: { email: string; password: string }; property: string };
const d = futureDates(8, 12);

beforeAll(async () => {
  s.owner = await createUser(db(), w.company, { role: 'owner' });
  s.manager = await createUser(db(), w.company, { role: 'manager' });
  s.property = await createProperty(db(), w.company, { name: 'Harbour loft' });
  await proposalProperty(db(), s.property, 100);
});

async function signedIn(who: { email: string; password: string }) {
  const c = new ConsoleClient(w.p.api.baseUrl);
  expect((await c.signIn(who.email, who.password)).status).toBe(303);
  return c;
}

/** Posts a form with repeated fields (dates, marked_ok) through the client's cookies. */
async function postPairs(c: ConsoleClient, path: string, pairs: [string, string][]) {
  const res = await fetch(`${w.p.api.baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(pairs).toString(),
  });
  return { status: res.status, text: await res.text(), location: res.headers.get('location') };
}

describe('marks and the tick a marked date needs', () => {
  it('refuses a marked date approved without its own tick, whatever the form posts; approves it with the tick', async () => {
    const uid = await proposeDays(db(), w.p.api, w.token, s.property, [
      { date: d[0], price: 1, currency: 'USD' },
      { date: d[1], price: 110, currency: 'USD' },
      { date: d[2], price: 131, currency: 'USD' },
    ]);
    const c = await signedIn(s.manager);
    const page = await c.get('/app/proposals');
    expect(page.text).toContain('(-99%)');
    expect(page.text).toContain('(+31%)');
    expect(page.text).toContain('2 dates marked');
    expect(page.text).toContain(`<input type="checkbox" name="marked_ok" value="${d[0]}"/>`);
    expect(page.text).toContain(`<input type="checkbox" name="dates" value="${d[1]}" checked=""/>`);
    const csrf = ConsoleClient.fields(page.text)._csrf!;
    const approve = `/app/proposals/${uid}/approve`;
    // A hand-made post naming the marked date as an ordinary one: refused, the list again with why.
    const sneaky = await postPairs(c, approve, [['_csrf', csrf], ['approve', 'selected'], ['dates', d[0]!], ['dates', d[1]!]]);
    expect(sneaky.status).toBe(400);
    expect(sneaky.text).toContain(`${d[0]} is marked (a price change beyond 30%)`);
    expect(sneaky.text).toContain('<h1>Proposals</h1>');
    // Approve all, confirmed, without the ticks: refused on the confirmation page.
    const all = await postPairs(c, approve, [['_csrf', csrf], ['approve', 'all'], ['confirmed', 'yes'], ['marked_ok', d[0]!]]);
    expect(all.status).toBe(400);
    expect(all.text).toContain(`${d[2]} is marked (a price change beyond 30%)`);
    expect(await proposalStatus(db(), uid)).toBe('pending');
    const ok = await postPairs(c, approve, [['_csrf', csrf], ['approve', 'selected'], ['dates', d[1]!], ['marked_ok', d[0]!]]);
    expect(ok.status, ok.text.slice(0, 300)).toBe(303);
    expect(await proposalStatus(db(), uid)).toBe('partly_approved');
  });

  it('shows what Approve all will do before it does it', async () => {
    const uid = await proposeDays(db(), w.p.api, w.token, s.property, [
      { date: d[3], price: 20, currency: 'USD' },
      { date: d[4], price: 105, currency: 'USD' },
    ]);
    const c = await signedIn(s.manager);
    const csrf = await c.csrf('/app/proposals');
    const step = await postPairs(c, `/app/proposals/${uid}/approve`, [['_csrf', csrf], ['approve', 'all']]);
    expect(step.status).toBe(200);
    expect(step.text).toContain('Approve all 2 dates of Harbour loft?');
    expect(step.text).toMatch(/What this does: 2 dates from .*, 1 marked/);
    expect(step.text).toContain('<input type="hidden" name="confirmed" value="yes"/>');
    expect(await proposalStatus(db(), uid)).toBe('pending');
    const done = await postPairs(c, `/app/proposals/${uid}/approve`, [['_csrf', csrf], ['approve', 'all'], ['confirmed', 'yes'], ['marked_ok', d[3]!]]);
    expect(done.location).toBe('/app/proposals?done=approved');
    expect(await proposalStatus(db(), uid)).toBe('approved');
  });

  it('marks a price under the property minimum, set on the property page', async () => {
    const c = await signedIn(s.manager);
    const month = await c.get(`/app/properties/${s.property}`);
    expect(month.text).toContain('Now: no minimum');
    const csrf = ConsoleClient.fields(month.text)._csrf!;
    const bad = await c.post(`/app/properties/${s.property}/min-price`, { _csrf: csrf, min_price: '80,5' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('min_price must be an amount like 80 or 80.50');
    const rival = await createProperty(db(), await createCompany(db(), 'Rival'));
    expect((await c.post(`/app/properties/${rival}/min-price`, { _csrf: csrf, min_price: '1' })).status).toBe(404);
    expect((await c.post(`/app/properties/${s.property}/min-price`, { _csrf: csrf, min_price: '90' })).status).toBe(303);
    expect((await c.get(`/app/properties/${s.property}`)).text).toContain('Now: $90.00 a night');
    const uid = await proposeDays(db(), w.p.api, w.token, s.property, [{ date: d[5], price: 85, currency: 'USD' }]);
    const page = await c.get('/app/proposals');
    expect(page.text).toContain('under the minimum $90.00');
    const refused = await postPairs(c, `/app/proposals/${uid}/approve`, [['_csrf', csrf], ['approve', 'selected'], ['dates', d[5]!]]);
    expect(refused.text).toContain(`${d[5]} is marked (a price under the minimum)`);
    expect(await proposalStatus(db(), uid)).toBe('pending');
    await c.post(`/app/properties/${s.property}/min-price`, { _csrf: csrf, min_price: '' });
    expect((await c.get(`/app/properties/${s.property}`)).text).toContain('Now: no minimum');
  });
});

describe('company settings', () => {
  it('is for owners: a manager is refused', async () => {
    const c = await signedIn(s.manager);
    expect((await c.get('/app/company-settings')).status).toBe(403);
    expect((await c.post('/app/company-settings', { _csrf: await c.csrf('/app/proposals'), time_zone: 'Asia/Tokyo', price_change_threshold: '50' })).status).toBe(403);
    const [row] = await db().execute<{ time_zone: string }>(sql`select time_zone from companies where uid = ${w.company}`);
    expect(row!.time_zone).toBe('UTC');
  });

  it('answers a bad zone or threshold with the form again, and applies good ones to the proposals page', async () => {
    const c = await signedIn(s.owner);
    const csrf = await c.csrf('/app/company-settings');
    for (const [form, message] of [
      [{ time_zone: 'Mars/Olympus', price_change_threshold: '30' }, 'Mars/Olympus is not a time zone this server knows'],
      [{ time_zone: '+09:00', price_change_threshold: '30' }, 'is not a time zone this server knows'],
      [{ time_zone: 'Asia/Tokyo', price_change_threshold: '0' }, 'price_change_threshold must be at least 1%'],
      [{ time_zone: 'Asia/Tokyo', price_change_threshold: 'lots' }, 'price_change_threshold must be a whole number of percent'],
    ] as const) {
      const res = await c.post('/app/company-settings', { _csrf: csrf, ...form });
      expect(res.status, message).toBe(400);
      expect(res.text).toContain(message);
      expect(res.text).toContain(`value="${form.time_zone}"`);
    }
    const uid = await proposeDays(db(), w.p.api, w.token, s.property, [{ date: d[6], price: 140, currency: 'USD' }]);
    expect((await c.get('/app/proposals')).text).toMatch(/Made .* UTC/);
    expect((await c.post('/app/company-settings', { _csrf: csrf, time_zone: 'asia/tokyo', price_change_threshold: '50' })).location).toMatch(/done=saved$/);
    const page = await c.get('/app/proposals');
    expect(page.text).toMatch(/Made .* GMT\+9/);
    // +40% is within the new 50% threshold: no longer marked.
    expect(page.text).toContain(`<input type="checkbox" name="dates" value="${d[6]}" checked=""/>`);
    expect(await proposalStatus(db(), uid)).toBe('pending');
    expect((await c.get('/app/company-settings')).text).toContain('value="Asia/Tokyo"');
  });
});
