import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { properties } from '../../shared/infra/db/schema/index.js';
import { eq } from 'drizzle-orm';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/* The console's reads (ConsoleService): month grid, per-date provenance, recent requests, property list. */

const w = useWorld({ queue: 'redis', workers: 1, seed: true });
const svc = () => w.p.ctx.services.console;
const db = () => w.tdb.database.db;

const HOSTILE = '<img src=x onerror=alert(1)>';

const batch = async (property: string, days: object[], token = w.token) => {
  const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await waitForFinal(w.p.api, token, res.body.data.request_uids);
  return res.body.data.request_uids as string[];
};
const stay = (checkin: string, checkout: string) => ({
  localCheckinDttm: `${checkin} 15:00:00`,
  localCheckoutDttm: `${checkout} 11:00:00`,
  legacyOverlap: false,
});
/** A proposal's request as the proposals issue stores it: `paused`, its days kept. */
const pausedRequest = (company: string, property: string, date: string) =>
  db().execute(sql`insert into calendar_requests (uid, company_uid, property_uid, status, days, days_total)
    values (${`rq_paused_${date}`}, ${company}, ${property}, 'paused', ${JSON.stringify([{ date, price: 99 }])}::jsonb, 1)`);

describe('the month grid', () => {
  it('shows per night the values, the holding booking with its code and guest, host blocks and proposed dates', async () => {
    const prop = await createProperty(db(), w.company, { name: 'Grid flat' });
    await db().update(properties).set({ currency: 'EUR', basePrice: '80.00', defaultMinStay: 2 }).where(eq(properties.uid, prop));
    // A month two months ahead: every date of it is in the future.
    const month = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 2, 1)).toISOString().slice(0, 7);
    const d = (n: number) => `${month}-${String(n).padStart(2, '0')}`;
    const [booking] = await createBookings(db(), [bookingRow(w.company, prop, { ...stay(d(3), d(5)), guestUid: 'g_grid', reservationCode: 'HMGRID01' })]);
    await db().execute(sql`update guests set name = ${HOSTILE} where company_uid = ${w.company} and uid = 'g_grid'`);
    await batch(prop, [
      { date: d(10), is_available: 0, notes: HOSTILE },
      { date: d(11), price: 150, currency: 'usd', min_stay: 4 },
    ]);
    await pausedRequest(w.company, prop, d(12));

    const m = await svc().month(w.company, prop, month);
    expect(m.month).toBe(month);
    expect(m.property).toMatchObject({ uid: prop, name: 'Grid flat', currency: 'EUR', calendar_control_allowed: true });
    expect(m.days[0]!.date).toBe(d(1));
    expect(m.days.at(-1)!.date.slice(0, 7)).toBe(month);
    const day = (n: number) => m.days.find((x) => x.date === d(n))!;
    expect(day(1)).toMatchObject({ price: 80, currency: 'EUR', min_stay: 2, is_available: 1, unavailable_reason: 'Not blocked', booking_uid: null, proposed: false });
    for (const n of [3, 4]) {
      expect(day(n)).toMatchObject({ is_available: 0, unavailable_reason: 'Blocked by reservation', reservation_code: 'HMGRID01', guest_name: HOSTILE, booking_uid: booking!.bookingUid });
    }
    // The check-out day is free.
    expect(day(5)).toMatchObject({ is_available: 1, reservation_code: null });
    expect(day(10)).toMatchObject({ is_available: 0, unavailable_reason: 'Blocked by host', notes: HOSTILE });
    expect(day(11)).toMatchObject({ price: 150, currency: 'USD', min_stay: 4 });
    expect(day(12).proposed).toBe(true);
    expect(m.days.filter((x) => x.proposed)).toHaveLength(1);
    expect(m.prev < month && m.next > month).toBe(true);
  });

  it("refuses another company's property and a malformed month", async () => {
    const other = await createCompany(db(), 'Other');
    const theirs = await createProperty(db(), other);
    await expect(svc().month(w.company, theirs)).rejects.toMatchObject({ status: 404 });
    await expect(svc().provenance(w.company, theirs, futureDates(1)[0]!)).rejects.toMatchObject({ status: 404 });
    await expect(svc().month(w.company, w.property, '2030-13')).rejects.toMatchObject({ status: 400, param: 'month' });
  });
});

describe("a date's provenance", () => {
  it('names, per field, the request that last set it, its app, status, times and warnings', async () => {
    const prop = await createProperty(db(), w.company);
    const pricing = await createToken(db(), w.company, ['calendar-control']);
    await db().execute(sql`update apps set name = 'PriceBot' where uid = ${pricing.appUid}`);
    const [a, b] = futureDates(2, 40) as [string, string];
    const [first] = await batch(prop, [{ date: a, price: 120, currency: 'EUR', notes: 'first' }, { date: '2000-01-01', price: 1, currency: 'USD' }]);
    const [second] = await batch(prop, [{ date: a, min_stay: 3, notes: 'second' }, { date: b, price: 50, currency: 'USD' }], pricing.token);

    const p = await svc().provenance(w.company, prop, a);
    const by = Object.fromEntries(p.fields.map((f) => [f.field, f]));
    expect(by.price).toMatchObject({ value: '120.00 EUR', request_uid: first, request_status: 'completed', app_name: 'integration', days_total: 1 });
    expect(by.price!.warnings).toEqual({ '2000-01-01': expect.any(String) });
    expect(by.price!.created_dttm).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(by.price!.finished_dttm).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(by.min_stay).toMatchObject({ value: '3', request_uid: second, app_name: 'PriceBot', app_uid: pricing.appUid });
    expect(by.notes).toMatchObject({ value: 'second', request_uid: second });
    expect(by.availability).toMatchObject({ value: null, seq: 0, request_uid: null });

    const never = await svc().provenance(w.company, prop, futureDates(1, 90)[0]!);
    expect(never.fields.map((f) => [f.field, f.request_uid])).toEqual([
      ['price', null], ['availability', null], ['min_stay', null], ['notes', null], ['max_stay', null], ['closed_to_arrival', null], ['closed_to_departure', null],
    ]);

    // The stay restrictions (issue 35) each name their own writer; a cleared max_stay reads no value but keeps it.
    const [third] = await batch(prop, [{ date: b, max_stay: 9, closed_to_departure: 1 }]);
    const [fourth] = await batch(prop, [{ date: b, max_stay: 0 }], pricing.token);
    const q = Object.fromEntries((await svc().provenance(w.company, prop, b)).fields.map((f) => [f.field, f]));
    expect(q.max_stay).toMatchObject({ value: null, request_uid: fourth, app_name: 'PriceBot' });
    expect(q.closed_to_departure).toMatchObject({ value: '1', request_uid: third });
    expect(q.closed_to_arrival).toMatchObject({ value: null, seq: 0, request_uid: null });
  });
});

describe('the lists', () => {
  it('lists recent requests newest first with property, app, status, days and warnings, only of the company', async () => {
    const prop = await createProperty(db(), w.company, { name: 'Requests flat' });
    const other = await createCompany(db(), 'Other');
    const theirProp = await createProperty(db(), other);
    const theirs = await createToken(db(), other, ['calendar-control']);
    const [d] = futureDates(1, 50) as [string];
    const [older] = await batch(prop, [{ date: d, price: 10, currency: 'USD' }]);
    const [newer] = await batch(prop, [{ date: d, price: 20, currency: 'USD' }, { date: '2001-01-01', price: 1, currency: 'USD' }]);
    const [foreign] = await batch(theirProp, [{ date: d, price: 30, currency: 'USD' }], theirs.token);

    const list = await svc().requests(w.company);
    const uids = list.map((r) => r.uid);
    expect(uids).not.toContain(foreign);
    expect(uids.indexOf(newer!)).toBeLessThan(uids.indexOf(older!));
    expect(list.find((r) => r.uid === newer)).toMatchObject({
      status: 'completed', property_name: 'Requests flat', app_name: 'integration', days_total: 1, days_applied: 1,
      warnings: { '2001-01-01': expect.any(String) },
    });
    expect((await svc().requests(w.company, 50, prop)).map((r) => r.uid)).toEqual([newer, older]);
  });

  it('lists the properties by name with the calendar-control flag and counts', async () => {
    const co = await createCompany(db(), 'List co');
    const a = await createProperty(db(), co, { name: 'B house' });
    const b = await createProperty(db(), co, { name: 'A house' });
    await db().update(properties).set({ calendarControlAllowed: false }).where(eq(properties.uid, b));
    const [d1, , d3] = futureDates(3, 5) as [string, string, string];
    await createBookings(db(), [bookingRow(co, a, stay(d1, d3)), bookingRow(co, a, { ...stay('2000-01-01', '2000-01-03') })]);
    await pausedRequest(co, b, d1);
    const list = await svc().properties(co);
    expect(list.map((p) => [p.name, p.calendar_control_allowed, p.upcoming_bookings, p.pending_proposal_requests])).toEqual([
      ['A house', false, 0, 1],
      ['B house', true, 1, 0],
    ]);
  });
});
