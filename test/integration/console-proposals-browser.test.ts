import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf, managerScene, monthAhead, newPage, nothingExecuted, shotsAtBothWidths, signIn, step } from '../support/browser.js';
import { useWorld } from '../support/world.js';
import { waitForFinal } from '../support/pipeline.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { until } from '../support/webhook-events.js';

/*
 * The Proposals and Webhooks pages in a real Chromium, as a manager uses them. A pricing app (a
 * token of the test) proposes on a property without calendar control; the manager sees each date's
 * proposed value beside the current one, approves some dates (they change on the month page once
 * the worker applies them; the others end disabled), rejects another proposal. On the Webhooks page
 * a test event reaches a local receiver and shows its status, the approved requests' deliveries are
 * in the log, and Redeliver sends one again. A hostile note shows as text.
 */

const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_BACKOFF_MS: '50', CALENDAR_CHUNK_DAYS: '1' };
const w = useWorld({ queue: 'redis', workers: 1, env, seed: true });
const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const db = () => w.tdb.database.db;
const s = {} as { manager: { email: string; password: string }; token: string; browser: Browser; month: string; receiver: WebhookReceiver; };
const d = (n: number) => dayOf(s.month, n);

beforeAll(async () => {
  Object.assign(s, await managerScene(db(), w.company, ['calendar-control', 'pricing-management']));
  s.receiver = await startWebhookReceiver();
  s.month = monthAhead();
  await db().execute(sql`update properties set name = 'Harbour loft' where uid = ${w.property}`);
  // Today's values, set directly; then calendar control is switched off and the app may only propose.
  const set = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: w.property, days: [5, 6, 7, 8].map((n) => ({ date: d(n), price: 100, currency: 'USD' })) }, s.token);
  await waitForFinal(w.p.api, s.token, set.body.data.request_uids);
  await db().execute(sql`update properties set calendar_control_allowed = false where uid = ${w.property}`);
  expect((await w.p.api.post('/api/v1/set-webhook', { url: s.receiver.url, events: ['calendar.request.finished'] }, s.token)).status).toBe(200);
});
afterAll(async () => {
  await s.browser?.close();
  await s.receiver?.close();
});

/** A proposal by the app: its uid and its requests (one a day: CALENDAR_CHUNK_DAYS=1), in date order. */
async function propose(days: object[], isUserAction = false): Promise<{ uid: string; requests: string[] }> {
  const res = await w.p.api.post('/api/v1/calendar-batch', { property_uid: w.property, days, is_user_action: isUserAction }, s.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [row] = await db().execute<{ p: string }>(sql`select proposal_uid as p from calendar_requests where uid = ${res.body.data.request_uids[0]}`);
  return { uid: row!.p, requests: res.body.data.request_uids };
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true });

async function signedInPage(): Promise<Page & { problems: string[] }> {
  const page = await newPage(s.browser);
  await signIn(page, w.p.api.baseUrl, s.manager.email, s.manager.password);
  page.on('dialog', (dialog) => void dialog.accept());
  return page;
}

describe('proposals and webhooks in a browser, as a manager', { timeout: 120_000 }, () => {
  it('approves some days of a proposal (they change, the rest end disabled) and rejects another', async () => {
    const first = await propose([
      { date: d(5), price: 140, currency: 'USD' },
      { date: d(6), price: 150, currency: 'USD' },
      { date: d(7), min_stay: 5 },
      { date: d(8), notes: HOSTILE },
    ], true);
    const second = await propose([{ date: d(20), price: 300, currency: 'USD' }]);
    const page = await signedInPage();
    await nav(page, 'Proposals').click();
    const card = page.getByRole('region', { name: 'Harbour loft · 4 dates from Rate Robot' });
    await step('each proposed value beside the current one', async () => {
      const row = (n: number) => card.getByRole('row', { name: new RegExp(d(n)) });
      expect(await row(5).textContent()).toContain('$100.00 → $140.00');
      expect(await row(7).textContent()).toContain('1 → 5');
      expect(await row(7).textContent()).toContain('$100.00 (unchanged)');
      expect(await row(8).textContent()).toContain(`none → ${HOSTILE}`);
      expect(await card.textContent()).toContain('asked for by a person in the app');
    });
    await shotsAtBothWidths(page, 'console-proposals');
    await step('approve the ticked days: untick two, tick the marked +40% (issue 42: marked dates start unticked)', async () => {
      expect(await card.getByLabel(d(5)).isChecked()).toBe(false);
      await card.getByLabel(d(5)).check();
      await card.getByLabel(d(6)).uncheck();
      await card.getByLabel(d(8)).uncheck();
      await card.getByRole('button', { name: 'Approve ticked dates' }).click();
      await page.getByRole('status').filter({ hasText: 'The ticked days are approved' }).waitFor();
    });
    await step('reject the other', async () => {
      await page.getByRole('region', { name: 'Harbour loft · 1 date from Rate Robot' }).getByRole('button', { name: 'Reject' }).click();
      await page.getByRole('status').filter({ hasText: 'The proposal is rejected' }).waitFor();
      expect(await page.getByText('No proposal is waiting.').count()).toBe(1);
    });
    const [r5, r6, r7, r8] = first.requests;
    const finals = await waitForFinal(w.p.api, s.token, [r5!, r7!, r6!, r8!, ...second.requests]);
    expect(finals.map((r) => r.request_status)).toEqual(['completed', 'completed', 'disabled', 'disabled', 'disabled']);
    expect(finals[2].warnings).toEqual({ [d(6)]: 'Day ignored - not approved' });
    expect(finals[4].warnings).toEqual({ [d(20)]: 'Day ignored - proposal rejected' });
    await step('the approved days changed on the month page, the others did not', async () => {
      await page.goto(`${w.p.api.baseUrl}/app/properties/${w.property}?month=${s.month}`);
      const cell = (n: number) => page.getByRole('link', { name: new RegExp(`^${d(n)},`) });
      expect(await cell(5).textContent()).toContain('$140.00');
      expect(await cell(6).textContent()).toContain('$100.00');
      expect(await cell(7).textContent()).toContain('min 5');
      expect(await cell(8).textContent()).not.toContain(HOSTILE);
      expect(await cell(20).textContent()).not.toContain('300.00');
    });
    await nothingExecuted(page);
  });

  it('sends a test event, shows the deliveries and redelivers one', async () => {
    const page = await signedInPage();
    await until(() => s.receiver.received.length >= 2);
    await nav(page, 'Webhooks').click();
    const card = page.getByRole('region', { name: 'Rate Robot' });
    await step('the webhook and its deliveries', async () => {
      expect(await card.textContent()).toContain(s.receiver.url);
      expect(await card.textContent()).toContain('calendar.request.finished');
      expect(await card.getByRole('row').filter({ hasText: 'calendar.request.finished' }).count()).toBeGreaterThanOrEqual(2);
    });
    await step('send a test event', async () => {
      const before = s.receiver.received.length;
      await card.getByRole('button', { name: 'Send test event to Rate Robot' }).click();
      await expect.poll(() => page.getByRole('status').textContent()).toMatch(/: delivered, HTTP 200 in \d+ ms/);
      expect(s.receiver.received.length).toBe(before + 1);
      expect(JSON.parse(s.receiver.received.at(-1)!.rawBody).type).toBe('webhook.test');
    });
    await shotsAtBothWidths(page, 'console-webhooks');
    await step('redeliver an event', async () => {
      const row = page.getByRole('region', { name: 'Rate Robot' }).getByRole('row').filter({ hasText: 'calendar.request.finished' }).first();
      const eventUid = (await row.locator('input[name="event_uid"]').getAttribute('value'))!;
      const sent = () => s.receiver.received.filter((r) => JSON.parse(r.rawBody).event_uid === eventUid).length;
      expect(sent()).toBe(1);
      await row.getByRole('button', { name: `Redeliver ${eventUid}` }).click();
      await page.getByRole('status').filter({ hasText: 'queued for delivery again' }).waitFor();
      await until(() => sent() === 2);
    });
    await nothingExecuted(page);
  });
});
