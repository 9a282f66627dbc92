import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertMessage, threadOfBooking } from '../../shared/domain/messaging/index.js';
import { utcDateTime } from '../../shared/infra/time.js';
import { dayOf, managerScene, monthAhead, newPage, screenshot, signIn, step } from '../support/browser.js';
import { bookingRow, createBookings } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { waitForFinal } from '../support/pipeline.js';

/*
 * The console's pages in a real Chromium, as a manager uses them: a property's month (a booked
 * night, a host block, a date's provenance naming the request and the app), the Requests page
 * changing without a reload, reservation requests accepted and declined, a reply to a guest whose
 * status reaches completed. Hostile text (guest name, note, message) is planted and must show as
 * text: no <img> made, no handler run, no CSP complaint.
 */

/** DATA_DIR of the file's own: replies by email land in its outbox (no SMTP server needed). */
const dataDir = join(tmpdir(), `console-pages-${process.pid}`);
const w = useWorld({ queue: 'redis', workers: 1, env: { MESSAGE_BACKOFF_MS: '50', DATA_DIR: dataDir }, seed: true });
const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const db = () => w.tdb.database.db;
const s = {} as { manager: { email: string; password: string }; token: string; browser: Browser; month: string };
const d = (n: number) => dayOf(s.month, n);

beforeAll(async () => {
  Object.assign(s, await managerScene(db(), w.company, ['calendar-control']));
  s.month = monthAhead();
  await db().execute(sql`update properties set name = 'Harbour loft' where uid = ${w.property}`);
});
afterAll(async () => {
  await s.browser?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const batch = async (days: object[]) => {
  const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: w.property, days }, s.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.request_uids as string[];
};

/** A link of the console's navigation (the header's). */
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true });

async function signedInPage(): Promise<Page & { problems: string[] }> {
  const page = await newPage(s.browser);
  await signIn(page, w.p.api.baseUrl, s.manager.email, s.manager.password);
  return page;
}

/** Screenshots at 1280 and 390 px wide (.data/screenshots/<name>-<width>.png). */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // Let the page lay out at the new width first; a busy machine can still refuse one capture.
    await page.evaluate(() => new Promise((done) => (globalThis as unknown as { requestAnimationFrame(f: () => void): void }).requestAnimationFrame(() => done(null))));
    await screenshot(page, `${name}-${width}`).catch(() => screenshot(page, `${name}-${width}`));
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Nothing planted ran: no handler fired, no element made from text, no CSP refusal logged. */
async function nothingExecuted(page: Page & { problems: string[] }): Promise<void> {
  expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('main img').count()).toBe(0);
  expect(page.problems).toEqual([]);
}

describe('console pages in a browser, as a manager', { timeout: 90_000 }, () => {
  it('shows a property’s month with a booked night and a host block, and a date’s provenance naming the request and app', async () => {
    await createBookings(db(), [
      bookingRow(w.company, w.property, { localCheckinDttm: `${d(3)} 15:00:00`, localCheckoutDttm: `${d(5)} 11:00:00`, reservationCode: 'HMBOOK01', guestUid: 'g_hostile', legacyOverlap: false }),
    ]);
    await db().execute(sql`update guests set name = ${HOSTILE} where company_uid = ${w.company} and uid = 'g_hostile'`);
    const uids = await batch([
      { date: d(10), is_available: 0, notes: HOSTILE },
      { date: d(11), price: 150, currency: 'usd', min_stay: 4 },
    ]);
    await waitForFinal(w.p.api, s.token, uids);
    // A proposal's request as the proposals issue stores it: `paused`, its days kept.
    await db().execute(sql`insert into calendar_requests (uid, company_uid, property_uid, status, days, days_total)
      values ('rq_paused_console', ${w.company}, ${w.property}, 'paused', ${JSON.stringify([{ date: d(12), price: 99 }])}::jsonb, 1)`);

    const page = await signedInPage();
    await step('open the property from the list', async () => {
      await nav(page, 'Properties').click();
      await page.getByRole('link', { name: 'Harbour loft' }).click();
      await page.getByRole('heading', { name: 'Harbour loft' }).waitFor();
      for (let i = 0; i < 2; i++) await page.locator('a[rel="next"]').click();
      await page.getByRole('heading', { name: s.month }).waitFor();
    });
    await step('a booked night and a host block', async () => {
      const booked = page.getByRole('link', { name: new RegExp(`^${d(4)}, booked: HMBOOK01`) });
      await expect.poll(() => booked.textContent()).toContain(`HMBOOK01 · ${HOSTILE}`);
      const block = page.getByRole('link', { name: new RegExp(`^${d(10)}, blocked by host`) });
      expect(await block.textContent()).toContain('Blocked by host');
      expect(await block.textContent()).toContain(HOSTILE);
      expect(await page.getByRole('link', { name: new RegExp(`^${d(12)}, available, proposal pending`) }).textContent()).toContain('Proposal pending');
    });
    await shots(page, 'console-property-month');
    await step('the provenance of a date', async () => {
      // By keyboard: Tab from the top of the page to the date, then Enter.
      await page.locator('body').focus();
      let reached = false;
      for (let i = 0; i < 80 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await page.evaluate((date) => (globalThis as unknown as { document: { activeElement: { textContent: string | null } | null } }).document.activeElement?.textContent?.startsWith(`${date},`) ?? false, d(11));
      }
      expect(reached, 'the date is reachable with Tab').toBe(true);
      await page.keyboard.press('Enter');
      const panel = page.getByRole('region', { name: `Provenance of ${d(11)}` });
      const price = panel.getByRole('row', { name: /^Price/ });
      await expect.poll(() => price.textContent()).toContain(uids[0]!);
      expect(await price.textContent()).toContain('Rate Robot');
      expect(await price.textContent()).toContain('$150.00');
      expect(await price.textContent()).toContain('completed');
    });
    await shots(page, 'console-property-provenance');
    await step('calendar control switched off', async () => {
      await page.getByRole('radio', { name: /Not allowed/ }).check();
      await page.getByRole('button', { name: 'Save calendar control' }).click();
      await page.getByRole('status').filter({ hasText: 'Calendar control is updated.' }).waitFor();
      const [row] = await db().execute<{ allowed: boolean; changes: number }>(sql`
        select calendar_control_allowed as allowed,
               (select count(*)::int from changes where kind = 'property' and object_uid = ${w.property}) as changes
          from properties where uid = ${w.property}`);
      expect(row).toEqual({ allowed: false, changes: 1 });
      await nav(page, 'Properties').click();
      expect(await page.getByRole('row', { name: /Harbour loft/ }).textContent()).toContain('proposals only');
    });
    await shots(page, 'console-properties');
    await nothingExecuted(page);
  });

  it('shows a new request on the Requests page and its completion, without a reload', async () => {
    const page = await signedInPage();
    await nav(page, 'Requests').click();
    await page.getByRole('heading', { name: 'Calendar requests' }).waitFor();
    await page.evaluate(() => ((globalThis as unknown as { __samePage: number }).__samePage = 1));
    const [uid] = await batch([{ date: d(20), price: 210, currency: 'USD' }]);
    await step('the row appears and reaches completed', async () => {
      const row = page.getByRole('row', { name: new RegExp(uid!) });
      await row.waitFor({ timeout: 15_000 });
      await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('completed');
      expect(await row.textContent()).toContain('Rate Robot');
      expect(await row.textContent()).toContain('1/1 applied');
    });
    expect(await page.evaluate(() => (globalThis as unknown as { __samePage?: number }).__samePage)).toBe(1);
    await shots(page, 'console-requests');
    await nothingExecuted(page);
  });

  it('accepts one reservation request and declines another', async () => {
    const booked = utcDateTime(new Date());
    const pending = { platformType: 'airgms' as const, bookingStatus: 'pending' as const, bookedDttm: booked, legacyOverlap: false };
    const [yes, no] = await createBookings(db(), [
      bookingRow(w.company, w.property, { ...pending, reservationCode: 'RQYES001', localCheckinDttm: `${d(22)} 15:00:00`, localCheckoutDttm: `${d(24)} 11:00:00` }),
      bookingRow(w.company, w.property, { ...pending, reservationCode: 'RQNO0001', localCheckinDttm: `${d(25)} 15:00:00`, localCheckoutDttm: `${d(26)} 11:00:00`, guestUid: 'g_rq_no' }),
    ]);
    await db().execute(sql`update guests set name = ${HOSTILE} where company_uid = ${w.company} and uid = 'g_rq_no'`);
    const page = await signedInPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await nav(page, 'Reservation requests').click();
    await step('both listed with their nights', async () => {
      const card = page.getByRole('region', { name: /^RQYES001/ });
      expect(await card.textContent()).toContain(`2 nights: ${d(22)}, ${d(23)}`);
      expect(await page.getByRole('region', { name: /^RQNO0001/ }).textContent()).toContain(HOSTILE);
    });
    await shots(page, 'console-reservation-requests');
    await step('accept one', async () => {
      await page.getByRole('button', { name: 'Accept RQYES001' }).click();
      await page.getByRole('status').filter({ hasText: 'The request is accepted' }).waitFor();
    });
    await step('decline the other', async () => {
      await page.getByRole('button', { name: 'Decline RQNO0001' }).click();
      await page.getByRole('status').filter({ hasText: 'The request is declined' }).waitFor();
      expect(await page.getByText('No reservation request is waiting.').count()).toBe(1);
    });
    const rows = await db().execute<{ booking_uid: string; booking_status: string }>(
      sql`select booking_uid, booking_status from bookings where booking_uid in (${yes!.bookingUid}, ${no!.bookingUid})`,
    );
    expect(Object.fromEntries([...rows].map((r) => [r.booking_uid, r.booking_status]))).toEqual({ [yes!.bookingUid]: 'accepted', [no!.bookingUid]: 'declined' });
    await nothingExecuted(page);
  });

  it('replies to a guest and shows the message’s status reach delivered', async () => {
    const [b] = await createBookings(db(), [
      bookingRow(w.company, w.property, { localCheckinDttm: `${d(27)} 15:00:00`, localCheckoutDttm: `${d(28)} 11:00:00`, reservationCode: 'HMCHAT01', guestUid: 'g_chat', legacyOverlap: false }),
    ]);
    await db().execute(sql`update guests set name = 'Ana Guest', emails = array['ana@guest.example'] where company_uid = ${w.company} and uid = 'g_chat'`);
    const thread = (await threadOfBooking(db(), w.company, { bookingUid: b!.bookingUid }))!;
    await insertMessage(db(), w.company, thread.id, { direction: 'inbound', channel: 'platform', text: `Is parking free? ${HOSTILE}` });
    const page = await signedInPage();
    await nav(page, 'Inbox').click();
    await page.getByRole('link', { name: /Ana Guest · / }).click();
    await step('the guest’s message shows as text', async () => {
      expect(await page.getByRole('list', { name: 'Messages' }).textContent()).toContain(`Is parking free? ${HOSTILE}`);
    });
    await step('reply by email and see it reach completed', async () => {
      await page.getByLabel('Reply to Ana Guest').fill('Yes, spot 4 is yours.');
      await page.getByLabel('Send by').selectOption('email');
      await page.getByRole('button', { name: 'Send reply' }).click();
      const mine = page.getByRole('listitem').filter({ hasText: 'Yes, spot 4 is yours.' });
      await mine.waitFor();
      await page.evaluate(() => ((globalThis as unknown as { __samePage: number }).__samePage = 1));
      await expect.poll(() => mine.locator('.status').textContent(), { timeout: 20_000 }).toBe('delivered');
      expect(await page.evaluate(() => (globalThis as unknown as { __samePage?: number }).__samePage)).toBe(1);
    });
    await shots(page, 'console-inbox-thread');
    await nav(page, 'Inbox').click();
    await shots(page, 'console-inbox');
    await nothingExecuted(page);
  });
});
