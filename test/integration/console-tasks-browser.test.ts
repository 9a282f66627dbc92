import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managerScene, nothingExecuted, step } from '../support/browser.js';
import { checkPage, Jobs, seedDay, signedInPage, type DayWorld } from '../support/console-day.js';
import { useWorld } from '../support/world.js';

/*
 * Tasks in a real Chromium (issue 41 "Work the tasks"): a cleaning reassigned from Today is what
 * the tasks API reads back; a task form that went stale (the task changed through update-task
 * after the form was rendered) is refused, shows the task as it now is and asks again, and the
 * other change is not overwritten; the status changes through the same service; the list filters
 * and the board by day show the tasks, the ones nobody holds first.
 */

const w = useWorld({ queue: 'redis', workers: 0, seed: true });
const db = () => w.tdb.database.db;
const s = {} as { browser: Browser; manager: { email: string; password: string }; token: string; day: DayWorld };
const jobs = new Jobs('console-tasks-jobs');
const base = () => w.p.api.baseUrl;

type WireTask = { task_uid: string; team_member_uid: string | null; task_status: string; description: string | null; version: number };
const readTask = async (uid: string): Promise<WireTask> => {
  const res = await w.p.api.get(`/api/v1/tasks?task_uids=${uid}`, s.token);
  expect(res.status).toBe(200);
  return res.body.data[0] as WireTask;
};

beforeAll(async () => {
  Object.assign(s, await managerScene(db(), w.company, ['tasks'], 'Cleaning app'));
  s.day = await seedDay(db(), w.company, w.property);
});
afterAll(async () => {
  jobs.save();
  await s.browser?.close();
});

describe('tasks in a browser, as a manager', { timeout: 120_000 }, () => {
  it('reassigns a cleaning from Today, read back by the tasks API', async () => {
    const page = await signedInPage(s.browser, base(), s.manager);
    const before = await readTask(s.day.cleaning);
    expect(before).toMatchObject({ team_member_uid: null, task_status: 'unassigned' });
    await jobs.run(page, base(), 'reassign a cleaning', async (click, choose) => {
      const tasks = page.getByRole('region', { name: /^Tasks today/ });
      // The one nobody holds comes first.
      expect(await tasks.getByRole('listitem').first().textContent()).toContain('Cleaning at Harbour loft');
      await choose(tasks.getByLabel(`Team member for ${s.day.cleaning}`), 'Ben Sparkle');
      await click(tasks.getByRole('button', { name: `Assign ${s.day.cleaning}` }));
      await page.getByRole('heading', { name: /^Today at/ }).waitFor();
      expect(await page.getByRole('region', { name: /^Tasks today/ }).textContent()).toContain('Ben Sparkle');
    });
    expect(await readTask(s.day.cleaning)).toMatchObject({ team_member_uid: s.day.team.ben, task_status: 'assigned', version: before.version + 1 });
    await nothingExecuted(page);
  });

  it('refuses a stale task form, shows the task as it now is, and saves when asked again', async () => {
    const page = await signedInPage(s.browser, base(), s.manager);
    await page.goto(`${base()}/app/tasks/${s.day.cleaning}`);
    const rendered = await readTask(s.day.cleaning);
    await step('meanwhile an app changes the description through update-task', async () => {
      const res = await w.p.api.post('/api/v1/update-task', { task_uid: s.day.cleaning, description: 'Bring extra towels' }, s.token);
      expect(res.status).toBe(200);
    });
    await step('the form rendered before is refused, with the current values shown', async () => {
      await page.getByLabel('Team member').selectOption({ label: 'Ana Cleaner' });
      await page.getByLabel('Description').fill('Deep clean');
      await page.getByRole('button', { name: 'Save task' }).click();
      const alert = page.getByRole('alert');
      expect(await alert.textContent()).toContain(`you had version ${rendered.version}, it is now at version ${rendered.version + 1}`);
      expect(await page.getByLabel('Description').inputValue()).toBe('Bring extra towels');
      expect(await page.getByLabel('Team member').locator('option:checked').textContent()).toBe('Ben Sparkle');
      // Nothing of the stale form was written.
      expect(await readTask(s.day.cleaning)).toMatchObject({ team_member_uid: s.day.team.ben, description: 'Bring extra towels', version: rendered.version + 1 });
      expect(page.problems.splice(0)).toEqual(['console: Failed to load resource: the server responded with a status of 409 (Conflict)']);
    });
    await checkPage(page, 'console-task-stale');
    await step('asked again, the change is saved, the status too', async () => {
      await page.getByLabel('Team member').selectOption({ label: 'Ana Cleaner' });
      await page.getByRole('button', { name: 'Save task' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await page.getByLabel('Status').selectOption('accepted');
      await page.getByRole('button', { name: 'Save task' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    });
    expect(await readTask(s.day.cleaning)).toMatchObject({ team_member_uid: s.day.team.ana, task_status: 'accepted', description: 'Bring extra towels', version: rendered.version + 3 });
    await checkPage(page, 'console-task');
    await nothingExecuted(page);
  });

  it('lists and boards tasks by day with filters, the unheld first; bad filters answer with the form', async () => {
    const page = await signedInPage(s.browser, base(), s.manager);
    const today = s.day.today.utc;
    await page.goto(`${base()}/app/tasks?from=${today}&to=${today}`);
    const list = page.getByRole('list', { name: 'Tasks' });
    expect(await list.getByRole('listitem').count()).toBe(2);
    await checkPage(page, 'console-tasks');
    await step('only the handyman task of Ana', async () => {
      await page.getByLabel('Type').selectOption({ label: 'Handyman' });
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL(/type=handyman/);
      expect(await list.getByRole('listitem').count()).toBe(1);
      expect(await list.textContent()).toContain('Handyman at Harbour loft');
    });
    await step('the board by day', async () => {
      await page.goto(`${base()}/app/tasks?view=board&from=${today}`);
      const board = page.getByRole('region', { name: 'Tasks by day' });
      expect(await board.getByRole('heading').count()).toBe(7);
      expect(await board.getByRole('region').first().textContent()).toContain('(2)');
    });
    await checkPage(page, 'console-tasks-board');
    await step('a bad filter', async () => {
      const res = await page.goto(`${base()}/app/tasks?status=sleeping`);
      expect(res?.status()).toBe(400);
      expect(await page.getByRole('alert').textContent()).toContain('status must be a task status');
      expect(page.problems.splice(0)).toEqual(['console: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    });
    await nothingExecuted(page);
  });
});
