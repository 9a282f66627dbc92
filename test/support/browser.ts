import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { issueToken, type Scope } from '../../shared/domain/auth/index.js';
import type { Db } from '../../shared/infra/db/client.js';
import { repoRoot } from './cli.js';
import { createUser } from './console.js';

/*
 * Real-browser tests: Debian's chromium (apt-get install -y chromium; .ci/run installs it when
 * missing) driven by playwright-core, which downloads no browser of its own. A missing browser
 * fails the test naming the step; nothing is skipped.
 */

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.join(repoRoot, '.data', 'screenshots');

/** Where a browser test of the console starts: a browser, Mia the company's manager, and an app's token with these scopes. */
export async function managerScene(db: Db, companyUid: string, scopes: readonly Scope[], appName = 'Rate Robot') {
  const browser = await launchBrowser();
  const manager = await createUser(db, companyUid, { role: 'manager', name: 'Mia Manager' });
  const { token } = await issueToken(db, companyUid, { scopes, appName });
  return { browser, manager, token };
}

/** The first month two months from now (YYYY-MM): every date of it is in the future. */
export function monthAhead(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1)).toISOString().slice(0, 7);
}

/** Day `n` of a month (YYYY-MM), YYYY-MM-DD. */
export const dayOf = (month: string, n: number) => `${month}-${String(n).padStart(2, '0')}`;

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`browser test step "launch chromium": ${CHROMIUM_PATH} is missing; install it with \`apt-get install -y chromium\` (.ci/run does)`);
  }
  try {
    return await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-dev-shm-usage'],
    });
  } catch (err) {
    throw new Error(`browser test step "launch chromium" (${CHROMIUM_PATH}) failed: ${(err as Error).message}`, { cause: err });
  }
}

/** A page of a fresh context (its own cookies); failed requests and console errors are collected. */
export async function newPage(browser: Browser): Promise<Page & { problems: string[] }> {
  const context = await browser.newContext();
  const page = (await context.newPage()) as Page & { problems: string[] };
  page.problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') page.problems.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => page.problems.push(`page error: ${err.message}`));
  return page;
}

/** Runs one named step; a failure says which step it was. */
export async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw new Error(`browser test step "${name}" failed: ${(err as Error).message}`, { cause: err });
  }
}

/** Signs in through the form at /app/login.html (or the one the page is on already). */
export async function signIn(page: Page, baseUrl: string, email: string, password: string, opts: { alreadyOnForm?: boolean } = {}): Promise<void> {
  await step('sign in', async () => {
    if (!opts.alreadyOnForm) await page.goto(`${baseUrl}/app/login.html`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
    if (page.url().includes('/app/login.html')) throw new Error(`still on the sign-in page: ${await page.locator('.error').textContent()}`);
  });
}

/** Writes .data/screenshots/<name>.png (for a person to look at; never compared). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Screenshots at 1280 and 390 px wide (.data/screenshots/<name>-<width>.png), back at 1280 after. */
export async function shotsAtBothWidths(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // Let the page lay out at the new width first; a busy machine can still refuse one capture.
    await page.evaluate(() => new Promise((done) => (globalThis as unknown as { requestAnimationFrame(f: () => void): void }).requestAnimationFrame(() => done(null))));
    await screenshot(page, `${name}-${width}`).catch(() => screenshot(page, `${name}-${width}`));
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Nothing planted ran: no handler fired (window.__pwned), no element made from text in main, no CSP refusal or error logged. */
export async function nothingExecuted(page: Page & { problems: string[] }): Promise<void> {
  expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator('main img').count()).toBe(0);
  expect(page.problems).toEqual([]);
}

/** What axe-core finds on the page as it is now: violations by impact, each with its rule and node count. */
export async function axeViolations(page: Page): Promise<{ id: string; impact: string; nodes: number; help: string }[]> {
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated, not added as a <script>: the console's CSP forbids inline script.
  await page.evaluate(source);
  const found = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; impact: string | null; nodes: unknown[]; help: string }[] }> } }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? 'unknown', nodes: v.nodes.length, help: v.help }));
  });
  return found;
}

/** Fails naming each critical or serious axe-core violation on the page (issue 42: 0 of each on every page). */
export async function expectNoSeriousAxeViolations(page: Page, name: string): Promise<void> {
  const serious = (await axeViolations(page)).filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(serious, `axe-core on ${name}`).toEqual([]);
}

/** The document's width against the viewport's (issue 42: no page-level sideways scroll at 390 px). */
export async function documentOverflow(page: Page): Promise<{ document: number; viewport: number }> {
  return page.evaluate(() => {
    const g = globalThis as unknown as { document: { documentElement: { scrollWidth: number } }; innerWidth: number };
    return { document: g.document.documentElement.scrollWidth, viewport: g.innerWidth };
  });
}
