import { describe, expect, it } from 'vitest';
import { createCompany, createProperty, createTask, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/** GET /api/v1/get-changes as docs/api.md "Told when anything changes" says. */
describe('GET /api/v1/get-changes', () => {
  const w = useWorld({ queue: 'redis', workers: 1, env: { CHANGE_RETENTION_DAYS: '0' }, seed: { scopes: ['calendar-control', 'tasks'] } });

  it('walks a task change and the days of an applied request, with objects, from cursor=now; waits for the next change', async () => {
    const db = w.tdb.database.db;
    const now = await w.p.api.get('/api/v1/get-changes?cursor=now', w.token);
    expect(now.status, JSON.stringify(now.body)).toBe(200);
    expect(now.body.data).toEqual([]);
    const task = (await createTask(db, w.company, w.property)).taskUid;
    expect((await w.p.api.post('/api/v1/update-task', { task_uid: task, description: 'Fresh linen' }, w.token)).status).toBe(200);
    const dates = futureDates(2, 3);
    const res = await w.p.api.post('/api/v1/set-calendar-batch', { property_uid: w.property, days: dates.map((date) => ({ date, price: 120, currency: 'usd', max_stay: 9, closed_to_arrival: 1 })) }, w.token);
    await waitForFinal(w.p.api, w.token, res.body.data.request_uids);

    const page = await w.p.api.get(`/api/v1/get-changes?cursor=${now.body.meta.cursor}&limit=2`, w.token);
    expect(page.status).toBe(200);
    expect(page.body.data.map((c: { kind: string; uid: string }) => [c.kind, c.uid])).toEqual([
      ['task', task],
      ['calendar_day', `${w.property}/${dates[0]}`],
    ]);
    expect(page.body.data[0].object).toMatchObject({ task_uid: task, description: 'Fresh linen' });
    // The stay restrictions travel with the day (issue 35), as get-calendar-data reads them.
    expect(page.body.data[1].object).toMatchObject({ date: dates[0], price: 120, property_uid: w.property, max_stay: 9, closed_to_arrival: 1, closed_to_departure: 0 });
    expect(page.body.meta.has_more).toBe(true);
    const rest = await w.p.api.get(`/api/v1/get-changes?cursor=${page.body.meta.cursor}`, w.token);
    expect(rest.body.data.map((c: { uid: string }) => c.uid)).toEqual([`${w.property}/${dates[1]}`]);
    expect(rest.body.meta.has_more).toBe(false);

    // A long poll answered by the next change.
    const waiting = w.p.api.get(`/api/v1/get-changes?cursor=${rest.body.meta.cursor}&wait=20`, w.token);
    await new Promise((r) => setTimeout(r, 300));
    expect((await w.p.api.post('/api/v1/update-task', { task_uid: task, description: 'Again' }, w.token)).status).toBe(200);
    const woken = await waiting;
    expect(woken.body.data.map((c: { uid: string }) => c.uid)).toEqual([task]);
  });

  it('keeps each kind behind its scope and each company behind its wall', async () => {
    const db = w.tdb.database.db;
    const propsOnly = (await createToken(db, w.company, ['listings'])).token;
    const refused = await w.p.api.get('/api/v1/get-changes?kinds=task', propsOnly);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 14, param: 'kinds' });
    const visible = await w.p.api.get('/api/v1/get-changes', propsOnly);
    expect(visible.body.data.filter((c: { kind: string }) => c.kind === 'task' || c.kind === 'calendar_day')).toEqual([]);

    const other = await createCompany(db, 'Other');
    await createProperty(db, other);
    const otherToken = (await createToken(db, other, ['calendar-control', 'tasks'])).token;
    const theirs = await w.p.api.get('/api/v1/get-changes', otherToken);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);
  });

  it('answers 410 to a cursor older than what the prune kept, and a bad cursor 400', async () => {
    const db = w.tdb.database.db;
    const start = await w.p.api.get('/api/v1/get-changes?cursor=now', w.token);
    const task = (await createTask(db, w.company, w.property)).taskUid;
    expect((await w.p.api.post('/api/v1/update-task', { task_uid: task, description: 'x' }, w.token)).status).toBe(200);
    expect((await w.p.api.get(`/api/v1/get-changes?cursor=${start.body.meta.cursor}`, w.token)).body.data).toHaveLength(1);
    // CHANGE_RETENTION_DAYS=0: everything stamped is past its retention.
    expect(await w.p.ctx.services.changes.prune()).toBeGreaterThan(0);
    const gone = await w.p.api.get(`/api/v1/get-changes?cursor=${start.body.meta.cursor}`, w.token);
    expect(gone.status).toBe(410);
    expect(gone.body.error).toEqual({ code: 11, param: 'cursor', message: 'cursor expired: read the lists again and continue from get-changes?cursor=now' });
    const bad = await w.p.api.get('/api/v1/get-changes?cursor=nonsense', w.token);
    expect(bad.status).toBe(400);
  });
});
