import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingStatuses } from '../../shared/domain/bookings/index.js';
import { addDays } from '../../shared/infra/time.js';
import { dayOf, managerScene, monthAhead, nothingExecuted, step } from '../support/browser.js';
import { checkPage, Jobs, seedDay, signedInPage, type DayWorld } from '../support/console-day.js';
import { useWorld } from '../support/world.js';

/*
 * Today, Bookings and a booking's page in a real Chromium (issue 41 "See the day"): Today's
 * arrivals are exactly the bookings API's holding stays checking in today at each property (in its
 * own zone: Tokyo's today is not New York's); a booking is found by its guest's name from Today; and
 * the manager jobs that start on Today (tonight's arrivals, accept a reservation request, approve
 * part of a proposal, reply to a guest, find a booking) take at most 3 clicks, counted and timed.
 */

const w = useWorld({ queue: 'redis', workers: 0, seed: true });
const db = () => w.tdb.database.db;
const s = {} as { browser: Browser; manager: { email: string; password: string }; token: string; day: DayWorld };
const jobs = new Jobs('console-today-jobs');
const base = () => w.p.api.baseUrl;

beforeAll(async () => {
  Object.assign(s, await managerScene(db(), w.company, ['messaging', 'calendar-control', 'pricing-management']));
  s.day = await seedDay(db(), w.company, w.property);
  // A webhook event of the app that failed for good: Today names the app, the navigation counts it.
  await db().execute(sql`insert into webhook_events (uid, company_uid, app_uid, type, status, attempts)
    select 'ev_failed_today', ${w.company}, uid, 'booking.updated', 'failed', 8 from apps where company_uid = ${w.company} and name = 'Rate Robot'`);
});
afterAll(async () => {
  jobs.save();
  await s.browser?.close();
});

describe('Today and Bookings in a browser, as a manager', { timeout: 120_000 }, () => {
  it("lists today's arrivals exactly as the bookings API has them, each at its property's today", async () => {
    const { today } = s.day;
    const from = [today.utc, today.tokyo].sort()[0]!;
    const to = [today.utc, today.tokyo].sort()[1]!;
    const res = await w.p.api.get(`/api/v1/bookings?from_date=${from}&to_date=${to}`, s.token);
    expect(res.status).toBe(200);
    const zoneToday: Record<string, string> = { [w.property]: today.utc, [s.day.tokyo]: today.tokyo };
    const holding = new Set<string>(holdingStatuses);
    const fromApi = (res.body.data as { booking_uid: string; property_uid: string; booking_status: string; local_checkin_dttm: string }[])
      .filter((b) => holding.has(b.booking_status) && b.local_checkin_dttm.startsWith(zoneToday[b.property_uid]!))
      .map((b) => b.booking_uid)
      .sort();
    expect(fromApi).toEqual([...s.day.arrivals].sort());

    const page = await signedInPage(s.browser, base(), s.manager);
    const result = await jobs.run(page, base(), "find tonight's arrivals", async () => {
      const arrivals = page.getByRole('region', { name: /^Arrivals/ });
      await arrivals.getByRole('link', { name: 'Greta Arrival' }).waitFor();
      const hrefs = await arrivals.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
      const shown = hrefs.filter((h) => h.startsWith('/app/bookings/')).map((h) => decodeURIComponent(h.slice('/app/bookings/'.length))).sort();
      expect(shown).toEqual(fromApi);
      const text = await arrivals.textContent();
      expect(text).toContain('check-in 15:00 UTC time');
      expect(text).toContain('check-in 16:00 Tokyo time');
      expect(text).not.toContain('Carl Cancelled');
    });
    expect(result.clicks).toBe(0);
    await step('departures, in house and what waits', async () => {
      expect(await page.getByRole('region', { name: /^Departures/ }).textContent()).toContain('Lena Leaving');
      expect(await page.getByRole('region', { name: /^In house/ }).textContent()).toContain('Sam Staying');
      expect(await page.getByRole('region', { name: /^Reservation requests/ }).textContent()).toMatch(/Rita Request.*expires in \d+ (h|day)/);
      expect(await page.getByRole('region', { name: /^Guests waiting/ }).textContent()).toContain('Lena Leaving');
      const nav = page.getByRole('navigation', { name: 'Console' });
      const counts = await nav.locator('.nav-item').allTextContents();
      expect(counts).toEqual(['Tasks1 unassigned today', 'Reservation requests1 waiting', 'Inbox1 waiting for a reply', 'Webhooks1 failing']);
      expect(await page.getByRole('region', { name: /^Webhooks failing/ }).textContent()).toContain('Rate Robot: 1 failed, 0 being retried');
    });
    await checkPage(page, 'console-today');
    await nothingExecuted(page);
  });

  it("finds a booking by its guest's name from Today and shows its page", async () => {
    const page = await signedInPage(s.browser, base(), s.manager);
    const { futureGuest } = s.day;
    await jobs.run(page, base(), 'find a booking by guest name', async (click) => {
      await page.getByRole('searchbox', { name: 'Find a booking' }).fill('futura');
      await click(page.getByRole('button', { name: 'Search' }));
      const table = page.getByRole('table', { name: 'Bookings' });
      expect(await table.getByRole('row').count()).toBe(2); // the header and Zoe's stay
      await table.getByRole('link', { name: futureGuest.name }).waitFor();
    });
    await checkPage(page, 'console-bookings');
    await step('the booking page: nights, price parts, door code, month link', async () => {
      await page.getByRole('link', { name: futureGuest.name }).click();
      await page.getByRole('heading', { name: `${futureGuest.name} at Harbour loft` }).waitFor();
      const main = (await page.locator('main').textContent()) ?? '';
      expect(main).toContain('3 nights');
      expect(main).toContain('$247.75');
      expect(main).toContain('$22.25');
      expect(main).toContain('4821'); // the door code, as a smart-locks token reads it
      const month = await page.getByRole('link', { name: /See them on Harbour loft/ }).getAttribute('href');
      expect(month).toBe(`/app/properties/${w.property}?month=${addDays(s.day.today.utc, 20).slice(0, 7)}`);
    });
    await checkPage(page, 'console-booking');
    await step('a bad search shows the form again with its message', async () => {
      const res = await page.goto(`${base()}/app/bookings?from=2026-02-30&status=sunny`);
      expect(res?.status()).toBe(400);
      expect(await page.getByRole('alert').textContent()).toContain('from must be a real date');
      // The browser logs the 400 it was answered: expected here, and the only problem allowed.
      expect(page.problems.splice(0)).toEqual(['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    });
    await nothingExecuted(page);
  });

  it('accepts a reservation request, approves part of a proposal and replies to a guest, each within 3 clicks of Today', async () => {
    await db().execute(sql`update properties set calendar_control_allowed = false where uid = ${w.property}`);
    const month = monthAhead();
    const d = (n: number) => dayOf(month, n);
    const proposed = await w.p.api.post('/api/v1/calendar-batch', { property_uid: w.property, days: [{ date: d(5), price: 140, currency: 'USD' }, { date: d(6), price: 150, currency: 'USD' }] }, s.token);
    expect(proposed.body.data.request_uids, JSON.stringify(proposed.body)).toHaveLength(1);
    const page = await signedInPage(s.browser, base(), s.manager);

    await jobs.run(page, base(), 'accept a reservation request', async (click) => {
      await click(page.getByRole('button', { name: `Accept ${s.day.request.code}` }));
      await page.getByRole('status').filter({ hasText: 'The request is accepted' }).waitFor();
    });
    const [accepted] = await db().execute<{ booking_status: string }>(sql`select booking_status from bookings where booking_uid = ${s.day.request.uid}`);
    expect(accepted!.booking_status).toBe('accepted');

    await jobs.run(page, base(), 'approve part of a proposal', async (click) => {
      await click(page.getByRole('region', { name: /^Proposals/ }).getByRole('link', { name: /Harbour loft: 2 dates from Rate Robot/ }));
      await click(page.getByLabel(d(6)));
      await click(page.locator('form', { has: page.getByLabel(d(6)) }).getByRole('button', { name: 'Approve ticked dates' }));
      await page.getByRole('status').filter({ hasText: 'The ticked days are approved' }).waitFor();
    });
    // The approved date is queued to apply; the unticked one is dropped from the request with its reason.
    const [request] = await db().execute<{ status: string; dates: string[]; warnings: Record<string, string> }>(
      sql`select status, jsonb_path_query_array(days, '$[*].date') as dates, warnings from calendar_requests where property_uid = ${w.property}`,
    );
    expect(request).toMatchObject({ status: 'queued', dates: [d(5)], warnings: { [d(6)]: 'Day ignored - not approved' } });

    await jobs.run(page, base(), 'reply to a guest', async (click) => {
      await click(page.getByRole('region', { name: /^Guests waiting/ }).getByRole('link', { name: s.day.threadGuest }));
      await page.getByLabel(`Reply to ${s.day.threadGuest}`).fill('Of course: leave them in the hall.');
      await click(page.getByRole('button', { name: 'Send reply' }));
      expect(await page.getByRole('list', { name: 'Messages' }).textContent()).toContain('Of course: leave them in the hall.');
    });
    await page.goto(`${base()}/app/`);
    expect(await page.getByRole('region', { name: /^Guests waiting/ }).textContent()).toContain('Every guest has an answer.');
    await nothingExecuted(page);
  });
});
