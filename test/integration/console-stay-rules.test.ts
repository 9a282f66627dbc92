import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient, createUser } from '../support/console.js';
import { createCompany, createProperty } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * The console and the stay restrictions (issue 35): the month shows them, the day editor sets them
 * through the calendar's submission path, and the booking form obeys them by book-property's rules.
 */

const t = useWorld({ api: true });
const db = () => t.tdb.database.db;
const w = {} as { company: string; owner: { email: string; password: string }; manager: { email: string; password: string }; rivalProperty: string };

beforeAll(async () => {
  w.company = await createCompany(db(), 'Acme Stays');
  w.owner = await createUser(db(), w.company, { role: 'owner' });
  w.manager = await createUser(db(), w.company, { role: 'manager' });
  w.rivalProperty = await createProperty(db(), await createCompany(db(), 'Rival Rentals'), { name: 'Rival chalet' });
});

async function signedIn(who: { email: string; password: string }) {
  const c = new ConsoleClient(t.api.baseUrl);
  expect((await c.signIn(who.email, who.password)).status).toBe(303);
  return c;
}

describe('the stay restrictions in the month (issue 35)', () => {
  it('shows max stay and the closed flags on the date, and who set each in its provenance', async () => {
    const prop = await createProperty(db(), w.company, { name: 'Rules flat' });
    await db().execute(sql`insert into calendar_days (company_uid, property_uid, date, max_stay, max_stay_seq, closed_to_arrival, closed_to_arrival_seq, closed_to_departure, closed_to_departure_seq)
      values (${w.company}, ${prop}, '2030-07-15', 7, 0, true, 0, true, 0)`);
    const c = await signedIn(w.owner);
    const page = await c.get(`/app/properties/${prop}?month=2030-07&date=2030-07-15`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('min 1 · max 7');
    expect(page.text).toContain('No arrival · No departure');
    for (const label of ['Max stay', 'Closed to arrival', 'Closed to departure']) expect(page.text).toContain(`<th scope="row">${label}</th>`);
    // A date with none of them shows none.
    expect((await c.get(`/app/properties/${prop}?month=2030-08`)).text).not.toContain('max ');
  });

  it('edits a date in the day editor through the calendar submission path: empty fields kept, a bad value answered with its warning', async () => {
    const prop = await createProperty(db(), w.company, { name: 'Editor flat' });
    const c = await signedIn(w.manager);
    const page = `/app/properties/${prop}?month=2030-07&date=2030-07-20`;
    expect((await c.get(page)).text).toContain('name="from" value="2030-07-20"');
    const form = { date: '2030-07-20', month: '2030-07', price: '', currency: '', is_available: 'keep', min_stay: '2', max_stay: '7', closed_to_arrival: '1', closed_to_departure: 'keep', notes: '' };
    const res = await c.post(`/app/properties/${prop}/days`, { _csrf: await c.csrf(page), ...form });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/done=day/);
    const [stored] = await db().execute<{ days: unknown[]; status: string }>(sql`select days, status from calendar_requests where property_uid = ${prop}`);
    expect(stored!.days).toEqual([{ date: '2030-07-20', price: null, currency: null, is_available: null, min_stay: 2, notes: null, max_stay: 7, closed_to_arrival: true }]);
    const bad = await c.post(`/app/properties/${prop}/days`, { _csrf: await c.csrf(page), ...form, max_stay: '400' });
    expect(bad.location).toContain(`warning=${encodeURIComponent('Day ignored - invalid max_stay')}`);
    expect((await c.get(bad.location!.replace(t.api.baseUrl, ''))).text).toContain('Not changed: Day ignored - invalid max_stay');
    // Another company's property: nothing stored (404).
    const theirs = await c.post(`/app/properties/${w.rivalProperty}/days`, { _csrf: await c.csrf(page), ...form });
    expect(theirs.status).toBe(404);
  });

  it("books through the console's booking form only what the calendar allows, by the same rules as book-property", async () => {
    const prop = await createProperty(db(), w.company, { name: 'Booking flat' });
    await db().execute(sql`insert into calendar_days (company_uid, property_uid, date, is_available) values (${w.company}, ${prop}, '2030-07-21', false)`);
    const c = await signedIn(w.owner);
    const page = `/app/properties/${prop}?month=2030-07`;
    expect((await c.get(page)).text).toContain('Book a stay');
    const stay = { month: '2030-07', guest_name: 'Ana Lima', guests: '2', price_total: '300', currency: 'EUR' };
    const count = async () => (await db().execute<{ n: number }>(sql`select count(*)::int as n from bookings where property_uid = ${prop}`))[0]!.n;
    const refused = await c.post(`/app/properties/${prop}/bookings`, { _csrf: await c.csrf(page), ...stay, checkin_date: '2030-07-20', checkout_date: '2030-07-23' });
    expect(refused.status).toBe(303);
    expect(refused.location).toContain(`refused=${encodeURIComponent('2030-07-21 is blocked by host')}`);
    expect(await count()).toBe(0);
    expect((await c.get(refused.location!.replace(t.api.baseUrl, ''))).text).toContain('Not booked: 2030-07-21 is blocked by host');
    const made = await c.post(`/app/properties/${prop}/bookings`, { _csrf: await c.csrf(page), ...stay, checkin_date: '2030-07-22', checkout_date: '2030-07-24' });
    expect(made.location).toMatch(/booked=AG/);
    expect(await count()).toBe(1);
  });
});

