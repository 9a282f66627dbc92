import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TaskInsert } from '../support/factories.js';
import { createCompany, createProperty, createTask, createToken } from '../support/factories.js';
import { expectError, useTasksWorld, wireTask } from '../support/tasks.fixture.js';

const w = useTasksWorld();

/** A company of its own, so a test sees exactly the tasks it made. */
async function freshCompany() {
  const db = w.tdb.database.db;
  const company = await createCompany(db);
  const property = await createProperty(db, company);
  const { token } = await createToken(db, company, ['tasks']);
  const add = (o: Partial<TaskInsert> = {}) => createTask(db, company, o.propertyUid ?? property, o);
  // Lower-case hex and digits sort alike under every collation, so expected orders hold anywhere.
  const run = randomBytes(4).toString('hex');
  const uid = (n: number) => `tk${run}n${String(n).padStart(3, '0')}`;
  const list = (query = '') => w.api.get(`/api/v1/tasks${query}`, token);
  const uidsOf = async (query = '') => {
    const res = await list(query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as { task_uid: string }[]).map((t) => t.task_uid);
  };
  return { company, property, token, add, uid, list, uidsOf };
}

/**
 * `n` more tasks, three sharing each start time, their uids descending in creation order so the
 * task_uid tie-break (not insertion order) decides.
 */
async function manyTasks(c: Awaited<ReturnType<typeof freshCompany>>, n: number, from = 0) {
  const rows = [];
  for (let i = from; i < from + n; i++) {
    const day = String(1 + Math.floor(i / 3)).padStart(2, '0');
    rows.push(
      await c.add({
        taskUid: c.uid(999 - i),
        localStartDttm: `2030-03-${day} 10:00:00`,
        localEndDttm: `2030-03-${day} 12:00:00`,
      }),
    );
  }
  return rows;
}

describe('GET /api/v1/tasks', () => {
  it('refuses a token without the tasks scope with 403 code 14', async () => {
    const { token } = await createToken(w.tdb.database.db, w.company, ['messaging', 'listings']);
    expectError(await w.api.get('/api/v1/tasks', token), 403, 14);
  });

  it('answers tasks in the wire shape with page meta', async () => {
    const c = await freshCompany();
    const t = await c.add({ teamMemberUid: null, description: null, taskType: 'task' });
    const res = await c.list();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [wireTask(t)], meta: { page: 1, has_next_page: false } });
    expect(res.body.data[0]).toMatchObject({ property_uid: c.property, task_type: 'task', task_status: 'unassigned', local_start_dttm: '2030-01-12 11:00:00', local_end_dttm: '2030-01-12 13:30:00' });
  });

  it("lists only the token's company's tasks", async () => {
    const c = await freshCompany();
    const mine = await c.add();
    await createTask(w.tdb.database.db, w.otherCompany, w.otherProperty);
    expect(await c.uidsOf()).toEqual([mine.taskUid]);
    // Naming another company's task explicitly does not reveal it either.
    const theirs = await createTask(w.tdb.database.db, w.otherCompany, w.otherProperty);
    expect(await c.uidsOf(`?task_uids=${theirs.taskUid}`)).toEqual([]);
  });

  it('orders by local_start_dttm then task_uid', async () => {
    const c = await freshCompany();
    const late = await c.add({ localStartDttm: '2030-05-02 09:00:00', localEndDttm: '2030-05-02 10:00:00' });
    const b = await c.add({ taskUid: c.uid(2), localStartDttm: '2030-05-01 09:00:00', localEndDttm: '2030-05-01 10:00:00' });
    const a = await c.add({ taskUid: c.uid(1), localStartDttm: '2030-05-01 09:00:00', localEndDttm: '2030-05-01 10:00:00' });
    const early = await c.add({ localStartDttm: '2030-04-30 23:59:59', localEndDttm: '2030-05-01 10:00:00' });
    expect(await c.uidsOf()).toEqual([early.taskUid, a.taskUid, b.taskUid, late.taskUid]);
  });

  it('filters by task_uids and property_uids (comma lists)', async () => {
    const c = await freshCompany();
    const second = await createProperty(w.tdb.database.db, c.company);
    const t1 = await c.add({ localStartDttm: '2030-01-01 10:00:00' });
    const t2 = await c.add({ localStartDttm: '2030-01-02 10:00:00', propertyUid: second });
    const t3 = await c.add({ localStartDttm: '2030-01-03 10:00:00' });
    expect(await c.uidsOf(`?task_uids=${t3.taskUid},${t1.taskUid}`)).toEqual([t1.taskUid, t3.taskUid]);
    expect(await c.uidsOf(`?property_uids=${second}`)).toEqual([t2.taskUid]);
    expect(await c.uidsOf(`?property_uids=${c.property},${second}`)).toEqual([t1.taskUid, t2.taskUid, t3.taskUid]);
    expect(await c.uidsOf(`?property_uids=${second}&task_uids=${t1.taskUid}`)).toEqual([]);
  });

  it("from_date hides tasks starting before it; a date alone means that day's 00:00:00", async () => {
    const c = await freshCompany();
    const before = await c.add({ localStartDttm: '2030-06-09 23:59:59', localEndDttm: '2030-06-10 01:00:00' });
    const midnight = await c.add({ localStartDttm: '2030-06-10 00:00:00', localEndDttm: '2030-06-10 01:00:00' });
    const noon = await c.add({ localStartDttm: '2030-06-10 12:00:00', localEndDttm: '2030-06-10 13:00:00' });
    expect(await c.uidsOf('?from_date=2030-06-10')).toEqual([midnight.taskUid, noon.taskUid]);
    expect(await c.uidsOf('?from_date=2030-06-10 12:00:00')).toEqual([noon.taskUid]);
    expect(await c.uidsOf('?from_date=2030-06-09 23:59:59')).toEqual([before.taskUid, midnight.taskUid, noon.taskUid]);
  });

  it('to_date hides tasks starting after it; a date alone covers its whole day', async () => {
    const c = await freshCompany();
    const morning = await c.add({ localStartDttm: '2030-06-10 08:00:00', localEndDttm: '2030-06-10 09:00:00' });
    const lastSecond = await c.add({ localStartDttm: '2030-06-10 23:59:59', localEndDttm: '2030-06-11 01:00:00' });
    await c.add({ localStartDttm: '2030-06-11 00:00:00', localEndDttm: '2030-06-11 01:00:00' });
    expect(await c.uidsOf('?to_date=2030-06-10')).toEqual([morning.taskUid, lastSecond.taskUid]);
    expect(await c.uidsOf('?to_date=2030-06-10 08:00:00')).toEqual([morning.taskUid]);
    expect(await c.uidsOf('?from_date=2030-06-10 09:00:00&to_date=2030-06-10')).toEqual([lastSecond.taskUid]);
  });

  it('walks 60 tasks over three pages without repeat or gap', async () => {
    const c = await freshCompany();
    const rows = await manyTasks(c, 60);
    const expected = [...rows]
      .sort((x, y) => x.localStartDttm.localeCompare(y.localStartDttm) || (x.taskUid < y.taskUid ? -1 : 1))
      .map((r) => r.taskUid);
    const seen: string[] = [];
    const metas = [];
    for (let page = 1; page <= 3; page++) {
      const res = await c.list(`?page=${page}`);
      expect(res.status).toBe(200);
      metas.push(res.body.meta);
      seen.push(...res.body.data.map((t: { task_uid: string }) => t.task_uid));
    }
    expect(metas).toEqual([
      { page: 1, has_next_page: true },
      { page: 2, has_next_page: true },
      { page: 3, has_next_page: false },
    ]);
    expect(seen).toEqual(expected);
    expect(new Set(seen).size).toBe(60);
  });

  it('has_next_page is exact at multiples of 25, and a page past the end is empty', async () => {
    const c = await freshCompany();
    await manyTasks(c, 25);
    expect((await c.list()).body.meta).toEqual({ page: 1, has_next_page: false });
    await manyTasks(c, 1, 25);
    expect((await c.list()).body.meta).toEqual({ page: 1, has_next_page: true });
    expect((await c.list('?page=2')).body).toMatchObject({ meta: { page: 2, has_next_page: false } });
    expect((await c.list('?page=2')).body.data).toHaveLength(1);
    await manyTasks(c, 24, 26);
    expect((await c.list('?page=2')).body.meta).toEqual({ page: 2, has_next_page: false });
    expect((await c.list('?page=2')).body.data).toHaveLength(25);
    expect((await c.list('?page=3')).body).toEqual({ data: [], meta: { page: 3, has_next_page: false } });
  });

  it.each([
    ['from_date', '?from_date=2030-02-30'],
    ['to_date', '?to_date=tomorrow'],
    ['to_date', '?to_date=2030-01-01 24:00:00'],
    ['page', '?page=0'],
    ['page', '?page=abc'],
    ['page', '?page=-1'],
  ])('refuses a malformed %s with 400 code 11 naming it: %s', async (param, query) => {
    expectError(await w.api.get(`/api/v1/tasks${query}`, w.token), 400, 11, param);
  });

  it('ignores unknown query parameters', async () => {
    const c = await freshCompany();
    const t = await c.add();
    expect(await c.uidsOf('?color=red&task_status=completed')).toEqual([t.taskUid]);
  });
});
