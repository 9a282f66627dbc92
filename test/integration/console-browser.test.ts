import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signIn, step } from '../support/browser.js';
import { createUser } from '../support/console.js';
import { createCompany } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/* The console in a real Chromium: sign-in, the strict CSP holding (no console errors), sign-out. */

const w = useWorld({ api: true });
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('console in a browser', () => {
  it('signs in, shows the home page under the strict CSP, and signs out', async () => {
    const company = await createCompany(w.tdb.database.db, 'Harbour Homes');
    const user = await createUser(w.tdb.database.db, company, { name: 'Rui Owner' });
    const page = await newPage(browser);
    await signIn(page, w.api.baseUrl, user.email, user.password);
    await step('home page', async () => {
      expect(new URL(page.url()).pathname).toBe('/app/');
      await page.getByRole('heading', { name: 'Harbour Homes' }).waitFor();
      // The stylesheet loaded (a CSP refusal would leave the header unstyled and log an error).
      const display = await page.locator('header.top').evaluate((el) => el.ownerDocument.defaultView!.getComputedStyle(el).display);
      expect(display).toBe('flex');
    });
    await screenshot(page, 'console-home');
    await step('sign out', async () => {
      await Promise.all([page.waitForURL(/\/app\/login\.html$/), page.getByRole('button', { name: 'Sign out' }).click()]);
    });
    expect(page.problems).toEqual([]);
  });

  it('says the same thing for a wrong password as for an unknown email', async () => {
    const company = await createCompany(w.tdb.database.db);
    const user = await createUser(w.tdb.database.db, company);
    const texts: string[] = [];
    for (const [email, password] of [[user.email, 'nope'], ['who@nowhere.test', 'nope']] as const) {
      const page = await newPage(browser);
      await page.goto(`${w.api.baseUrl}/app/login.html`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      texts.push((await page.getByRole('alert').textContent()) ?? '');
    }
    expect(texts[0]).toBeTruthy();
    expect(texts[1]).toBe(texts[0]);
  });
});
