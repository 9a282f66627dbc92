import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../shared/domain/auth/index.js';
import { utcDateTime } from '../../shared/infra/time.js';
import { axeViolations, documentOverflow, expectNoSeriousAxeViolations, launchBrowser, newPage, shotsAtBothWidths, signIn, step } from '../support/browser.js';
import { createUser } from '../support/console.js';
import { bookingRow, createBookings, createCompany, createProperty } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * The shell of every console page (issue 42) in a real Chromium: the navigation as a Menu on a
 * 390 px phone, worked by keyboard; the skip link; 404 keeping the navigation; `/` sending a browser
 * to the console; the notification settings switched off by a manager, read back in the outbox.
 * And the sweep over the pages nobody else owns: axe-core 0 critical / 0 serious, no page-level
 * sideways scroll at 390 px.
 */

const dataDir = join(tmpdir(), `console-shell-${process.pid}`);
const t = useWorld({ api: true, env: { DATA_DIR: dataDir, CONSOLE_URL: 'https://ops.example.test/app' } });
const s = {} as { browser: Browser; company: string; property: string; owner: { email: string; password: string }; manager: { uid: string; email: string; password: string }; clientId: string; redirect: string };
const db = () => t.tdb.database.db;

beforeAll(async () => {
  s.browser = await launchBrowser();
  s.company = await createCompany(db(), 'Harbour Homes');
  s.property = await createProperty(db(), s.company, { name: 'Shibuya loft', timeZone: 'Asia/Tokyo' });
  s.owner = await createUser(db(), s.company, { role: 'owner', name: 'Olga Owner' });
  s.manager = await createUser(db(), s.company, { role: 'manager', name: 'Mia Manager' });
  // What the swept pages show: a reservation request, a calendar request, a webhook with a failed event, an OAuth client.
  await createBookings(db(), [bookingRow(s.company, s.property, { platformType: 'airgms', bookingStatus: 'pending', listingUid: `${s.property}_airgms`, bookedDttm: utcDateTime(new Date()), legacyOverlap: false })]);
  const app = await issueToken(db(), s.company, { scopes: ['calendar-control'], appName: 'Rate Robot' });
  const res = await t.api.post('/api/v1/set-calendar-batch', { property_uid: s.property, days: [{ date: '2031-04-01', price: 23000, currency: 'JPY' }] }, app.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await db().execute(sql`insert into webhooks (app_uid, company_uid, url, secret) values (${app.appUid}, ${s.company}, 'https://hooks.example.com/a-rather-long-path/for-the-phone', 'whsec_x')`);
  await db().execute(sql`insert into webhook_events (uid, company_uid, app_uid, status, attempts, finished_at) values ('ev_shell_1', ${s.company}, ${app.appUid}, 'failed', 3, now())`);
  await db().execute(sql`insert into webhook_deliveries (event_uid, attempt, url, status_code, error, duration_ms) values ('ev_shell_1', 3, 'https://hooks.example.com/a', 503, null, 40)`);
  s.redirect = `${t.api.baseUrl.replace('127.0.0.1', 'localhost')}/app/oauth-demo/callback`;
  ({ clientId: s.clientId } = await t.api.ctx.services.oauth.createClient({ name: 'Channel Sync', redirectUris: [s.redirect], scopes: ['messaging', 'tasks'], withSecret: false }));
});
afterAll(async () => {
  await s.browser?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The focused element's tag and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = (globalThis as unknown as { document: { activeElement: { tagName: string; textContent: string | null } | null } }).document.activeElement;
    return { tag: el?.tagName, text: el?.textContent?.trim() };
  });

async function signedInPage(who: { email: string; password: string } = s.owner): Promise<Page & { problems: string[] }> {
  const page = await newPage(s.browser);
  await signIn(page, t.api.baseUrl, who.email, who.password);
  return page;
}

describe('the shell of every page', () => {
  it('collapses the navigation to a Menu at 390 px that opens and is followed by keyboard alone', async () => {
    const page = await signedInPage();
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${t.api.baseUrl}/app/requests`);
    await step('the row of links is hidden, the Menu button shown', async () => {
      expect(await page.getByRole('navigation', { name: 'Console' }).isVisible()).toBe(false);
      expect(await page.getByText('Menu', { exact: true }).isVisible()).toBe(true);
    });
    await step('Tab reaches the skip link first, then the Menu; Enter opens it; a link is followed', async () => {
      await page.keyboard.press('Tab');
      expect((await focused(page)).text).toBe('Skip to content');
      for (let i = 0; i < 6 && (await focused(page)).tag !== 'SUMMARY'; i++) await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      const menu = page.getByRole('navigation', { name: 'Menu' });
      await menu.getByRole('link', { name: 'Webhooks' }).waitFor({ state: 'visible' });
      await shotsAtBothWidths(page, 'shell-menu-open');
      await page.setViewportSize({ width: 390, height: 800 });
      await menu.getByRole('link', { name: 'Webhooks' }).focus();
      await Promise.all([page.waitForURL(/\/app\/webhooks$/), page.keyboard.press('Enter')]);
    });
    await step('the skip link moves the focus to the main content', async () => {
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      expect((await focused(page)).tag).toBe('MAIN');
    });
    await step('at 1280 px the links are in a row and the Menu hidden', async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settings', exact: true }).isVisible()).toBe(true);
      expect(await page.getByText('Menu', { exact: true }).isVisible()).toBe(false);
    });
  });

  it('keeps the navigation on a 404 for a signed-in person, and not for a stranger', async () => {
    const page = await signedInPage();
    const res = await page.goto(`${t.api.baseUrl}/app/no-such-page`);
    expect(res?.status()).toBe(404);
    expect(await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Requests', exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    const stranger = await newPage(s.browser);
    expect((await stranger.goto(`${t.api.baseUrl}/app/no-such-page`))?.status()).toBe(404);
    expect(await stranger.getByRole('navigation').count()).toBe(0);
  });

  it('sends a browser opening / to the console, while an API client keeps the JSON', async () => {
    const page = await newPage(s.browser);
    await page.goto(`${t.api.baseUrl}/`);
    expect(new URL(page.url()).pathname).toBe('/app/login.html');
    const api = await fetch(`${t.api.baseUrl}/`, { redirect: 'manual' });
    expect(api.status).not.toBe(303);
    expect(api.headers.get('content-type')).toMatch(/json/);
    const json = await fetch(`${t.api.baseUrl}/`, { redirect: 'manual', headers: { Accept: 'application/json' } });
    expect(json.headers.get('content-type')).toMatch(/json/);
  });
});

describe('notification settings', () => {
  const outbox = join(dataDir, 'outbox');
  /** The reservation-request emails to `email` in the outbox (the webhook's failed event is told too). */
  const mailsTo = async (email: string) => {
    const files = await readdir(outbox).catch(() => [] as string[]);
    const texts = await Promise.all(files.filter((f) => f.endsWith('.eml')).map((f) => readFile(join(outbox, f), 'utf8')));
    return texts.filter((m) => m.includes(`<${email}>`) && /^Subject: Reservation request/m.test(m));
  };

  it('a reservation request emails each manager once; a manager who switched it off gets none', async () => {
    await t.api.ctx.services.notifications.sweep();
    expect(await mailsTo(s.manager.email)).toHaveLength(1);
    expect(await mailsTo(s.owner.email)).toHaveLength(1);
    const page = await signedInPage(s.manager);
    await page.goto(`${t.api.baseUrl}/app/settings`);
    await step('switch reservation requests off, by their labels', async () => {
      await page.getByRole('group', { name: 'New reservation requests' }).getByLabel('Off').check();
      await Promise.all([page.waitForURL(/done=saved/), page.getByRole('button', { name: 'Save notification settings' }).click()]);
      expect(await page.getByRole('status').textContent()).toContain('saved');
      expect((await t.api.ctx.services.notifications.settings(s.manager.uid)).reservation_request).toBe('off');
    });
    await shotsAtBothWidths(page, 'settings');
    await createBookings(db(), [bookingRow(s.company, s.property, { platformType: 'airgms', bookingStatus: 'pending', listingUid: `${s.property}_airgms`, bookedDttm: utcDateTime(new Date()), localCheckinDttm: '2031-06-01 15:00:00', localCheckoutDttm: '2031-06-03 11:00:00', legacyOverlap: false })]);
    await t.api.ctx.services.notifications.sweep();
    expect(await mailsTo(s.manager.email)).toHaveLength(1);
    expect(await mailsTo(s.owner.email)).toHaveLength(2);
    await step('a bad mode is refused with its message, not a 500', async () => {
      const csrf = await page.locator('input[name=_csrf]').first().inputValue();
      const res = await page.request.post(`${t.api.baseUrl}/app/settings/notifications`, { form: { _csrf: csrf, reservation_request: 'loud' }, maxRedirects: 0 });
      expect(res.status()).toBe(400);
      expect(await res.text()).toContain('Not saved');
    });
  });
});

describe('the pages nobody else owns, at 390 px', () => {
  it('have 0 critical and 0 serious axe-core violations and no page-level sideways scroll', async () => {
    const page = await signedInPage();
    const pages: Record<string, string> = {
      consent: `/app/auth.html?${new URLSearchParams({ client_id: s.clientId, redirect_uri: s.redirect, scope: 'messaging,tasks', state: 'st' }).toString()}`,
      'oauth-demo': '/app/oauth-demo/callback?code=a-long-authorization-code-0123456789abcdef&state=st',
      'connected-apps': '/app/connected-apps',
      'developer-apps': '/app/developer-apps',
      requests: '/app/requests',
      'reservation-requests': '/app/reservation-requests',
      webhooks: '/app/webhooks',
      '404': '/app/no-such-page',
      settings: '/app/settings',
      properties: '/app/properties',
    };
    const report: string[] = [];
    const check = async (name: string, p: Page) => {
      await p.setViewportSize({ width: 390, height: 800 });
      const v = await axeViolations(p);
      const { document, viewport } = await documentOverflow(p);
      report.push(`${name}: axe ${v.map((x) => `${x.id}/${x.impact}(${x.nodes})`).join(' ') || 'none'}; width ${document}/${viewport}`);
      await expectNoSeriousAxeViolations(p, name);
      expect(document, `${name} at 390 px`).toBeLessThanOrEqual(viewport);
      await shotsAtBothWidths(p, `sweep-${name}`);
    };
    for (const [name, path] of Object.entries(pages)) {
      await page.goto(`${t.api.baseUrl}${path}`);
      await check(name, page);
    }
    const signedOut = await newPage(s.browser);
    await signedOut.goto(`${t.api.baseUrl}/app/login.html`);
    await check('login', signedOut);
    console.log(`console sweep at 390 px:\n${report.join('\n')}`);
  });
});
