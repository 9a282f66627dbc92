import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn, step } from '../support/browser.js';
import { createUser } from '../support/console.js';
import { createCompany } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * The OAuth flow as a person walks it in Chromium. The redirect URI is on another origin
 * (localhost vs 127.0.0.1), so the consent form's CSP form-action must allow it.
 */

const w = useWorld({ api: true });
let browser: Browser;
let user: { email: string; password: string };
let clientId: string;
let redirect: string;

beforeAll(async () => {
  browser = await launchBrowser();
  const company = await createCompany(w.tdb.database.db, 'Harbour Homes');
  user = await createUser(w.tdb.database.db, company);
  redirect = `${w.api.baseUrl.replace('127.0.0.1', 'localhost')}/oauth-demo/callback`;
  ({ clientId } = await w.api.ctx.services.oauth.createClient({ name: 'Channel Sync', redirectUris: [redirect], scopes: ['messaging', 'tasks'], withSecret: false }));
});
afterAll(async () => {
  await browser?.close();
});

const authUrl = () => `${w.api.baseUrl}/app/auth.html?${new URLSearchParams({ client_id: clientId, redirect_uri: redirect, scope: 'messaging,tasks', state: 'st-42' }).toString()}`;

describe('connecting an app in a browser', () => {
  it('signs in, sees the app and scopes, clicks Allow, lands on the redirect URI; the code buys a working token', async () => {
    const page = await newPage(browser);
    await step('open the authorization URL (signed out: the sign-in form first)', async () => {
      await page.goto(authUrl());
      expect(new URL(page.url()).pathname).toBe('/app/login.html');
    });
    await signIn(page, w.api.baseUrl, user.email, user.password, { alreadyOnForm: true });
    await step('consent page names the app, company and scopes', async () => {
      await page.getByRole('heading', { name: 'Connect Channel Sync' }).waitFor();
      expect(await page.locator('main').textContent()).toContain('Harbour Homes');
      expect(await page.locator('ul.scopes li').allTextContents()).toEqual([expect.stringContaining('messaging'), expect.stringContaining('tasks')]);
    });
    await screenshot(page, 'oauth-consent');
    const landed = await step('click Allow', async () => {
      await Promise.all([page.waitForURL((u) => u.toString().startsWith(redirect)), page.getByRole('button', { name: 'Allow' }).click()]);
      return new URL(page.url());
    });
    expect(landed.searchParams.get('state')).toBe('st-42');
    const code = landed.searchParams.get('code');
    expect(code).toBeTruthy();
    const token = await step('exchange the code over HTTP', async () => {
      const res = await w.api.get(`/auth/token?${new URLSearchParams({ grant_type: 'authorization_code', code: code!, redirect_uri: redirect, client_id: clientId }).toString()}`);
      expect(res.status).toBe(200);
      expect(res.body.scope).toBe('messaging,tasks');
      return res.body.access_token as string;
    });
    await step('call /api/v1/bookings with the token', async () => {
      expect((await w.api.get('/api/v1/bookings', token)).status).toBe(200);
    });
  });

  it('clicks Deny and lands on the redirect URI with access_denied', async () => {
    const page = await newPage(browser);
    await signIn(page, w.api.baseUrl, user.email, user.password);
    await page.goto(authUrl());
    await step('click Deny', async () => {
      await Promise.all([page.waitForURL((u) => u.toString().startsWith(redirect)), page.getByRole('button', { name: 'Deny' }).click()]);
    });
    const landed = new URL(page.url());
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe('st-42');
    expect(landed.searchParams.get('code')).toBeNull();
  });
});
