import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import { scopes } from '../../shared/domain/auth/index.js';
import { newUid } from '../../shared/infra/ids.js';
import { bookingRow, createBookings, createCompany, createProperty, createTask, createTeamMember, createToken } from '../support/factories.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';

/*
 * Two companies with tokens holding every scope, and a bit of everything each: properties,
 * bookings, team members, tasks, calendar requests applied by a worker. Every id parameter of every
 * method is tried with the other company's uid and with a made-up uid of the same kind: the two
 * answers must be the same (status, code, param, message up to the uid, data), and no row of
 * either company may change.
 */

interface Tenant {
  company: string;
  token: string;
  properties: string[];
  bookings: string[];
  cleaners: string[];
  tasks: string[];
  requests: string[];
}

const world = useWorld({ queue: 'redis', env: { RATE_LIMIT_PER_MINUTE: '100000' } });
const t: Record<'a' | 'b', Tenant> = {} as never;
const dates = futureDates(5, 3);

async function createTenant(name: string): Promise<Tenant> {
  const db = world.tdb.database.db;
  const company = await createCompany(db, name);
  const properties = [await createProperty(db, company), await createProperty(db, company, { timeZone: 'Europe/Lisbon' })];
  const later = { localCheckinDttm: '2030-02-01 15:00:00', localCheckoutDttm: '2030-02-03 11:00:00' };
  const rows = properties.flatMap((pr) => [bookingRow(company, pr), bookingRow(company, pr, later)]);
  await createBookings(db, rows);
  const cleaners = [await createTeamMember(db, company), await createTeamMember(db, company, { name: 'Bo' })];
  await createTeamMember(db, company, { active: false });
  const tasks = [];
  for (const pr of properties) {
    tasks.push((await createTask(db, company, pr, { teamMemberUid: cleaners[0], taskStatus: 'assigned' })).taskUid);
    tasks.push((await createTask(db, company, pr)).taskUid);
  }
  const { token } = await createToken(db, company, scopes);
  const requests: string[] = [];
  for (const pr of properties) {
    const days = dates.map((date, i) => ({ date, price: 100 + i, currency: 'EUR', min_stay: 2, notes: `${name} ${i}` }));
    const res = await world.p.api.post('/api/v1/set-calendar-batch', { property_uid: pr, days }, token);
    expect(res.status).toBe(200);
    requests.push(...(res.body.data.request_uids as string[]));
  }
  return { company, token, properties, bookings: rows.map((r) => r.bookingUid), cleaners, tasks, requests };
}

const tenantTables = ['apps', 'access_tokens', 'properties', 'bookings', 'team_members', 'tasks', 'calendar_requests', 'calendar_days', 'idempotency_keys'];

/** Every row of the company, table by table, as Postgres holds it. */
async function snapshot(company: string) {
  const out: Record<string, unknown[]> = {};
  out.companies = [...(await world.tdb.database.sql`select * from companies where uid = ${company}`)];
  for (const table of tenantTables) {
    out[table] = [...(await world.tdb.database.sql.unsafe(`select t.* from ${table} t where company_uid = $1 order by t::text`, [company]))];
  }
  return out;
}

beforeAll(async () => {
  const workers = await world.p.startWorkers(1);
  t.a = await createTenant('Alpha');
  t.b = await createTenant('Beta');
  const final = await waitForFinal(world.p.api, t.a.token, t.a.requests);
  await waitForFinal(world.p.api, t.b.token, t.b.requests);
  expect(final.every((s) => s.request_status === 'completed')).toBe(true);
  // Nothing runs in the background while rows are compared.
  await Promise.all(workers.map((wk) => wk.close()));
}, 60_000);

interface Probe {
  name: string;
  /** The uid prefix of the kind of object, for a made-up uid of the same kind. */
  kind: string;
  /** The uid of the other company's object tried. */
  foreign: (other: Tenant) => string;
  call: (me: Tenant, uid: string) => Promise<{ status: number; body: any }>;
}

const get = (path: string, token: string) => world.p.api.get(path, token);
const post = (path: string, body: unknown, token: string, headers?: Record<string, string>) => world.p.api.post(path, body, token, headers);
const range = `from_date=${dates[0]}&to_date=${dates[4]}`;
const probe = (name: string, kind: string, foreign: (o: Tenant) => string | undefined, call: Probe['call']): Probe => ({
  name,
  kind,
  foreign: (o) => foreign(o) as string,
  call,
});

/** Every id parameter of every method, with how to fill it for the caller `me`. */
const probes: Probe[] = [
  probe('bookings booking_uids', 'bk_', (o) => o.bookings[0], (me, u) => get(`/api/v1/bookings?booking_uids=${u}`, me.token)),
  probe('bookings booking_uids mixed with own', 'bk_', (o) => o.bookings[1], (me, u) =>
    get(`/api/v1/bookings?booking_uids=${me.bookings[0]},${u}`, me.token),
  ),
  probe('bookings property_uid', 'pr_', (o) => o.properties[0], (me, u) => get(`/api/v1/bookings?property_uid=${u}`, me.token)),
  probe('bookings property_uid mixed with own', 'pr_', (o) => o.properties[1], (me, u) =>
    get(`/api/v1/bookings?property_uid=${u},${me.properties[0]}`, me.token),
  ),
  probe('tasks task_uids', 'tk_', (o) => o.tasks[0], (me, u) => get(`/api/v1/tasks?task_uids=${u}`, me.token)),
  probe('tasks task_uids mixed with own', 'tk_', (o) => o.tasks[1], (me, u) => get(`/api/v1/tasks?task_uids=${me.tasks[2]},${u}`, me.token)),
  probe('tasks property_uids', 'pr_', (o) => o.properties[0], (me, u) => get(`/api/v1/tasks?property_uids=${u}`, me.token)),
  probe('tasks property_uids mixed with own', 'pr_', (o) => o.properties[1], (me, u) =>
    get(`/api/v1/tasks?property_uids=${me.properties[1]},${u}`, me.token),
  ),
  probe('get-calendar-data property_uid', 'pr_', (o) => o.properties[0], (me, u) =>
    get(`/api/v1/get-calendar-data?property_uid=${u}&${range}`, me.token),
  ),
  probe('get-request-status request_uid', 'rq_', (o) => o.requests[0], (me, u) => get(`/api/v1/get-request-status?request_uid=${u}`, me.token)),
  probe('get-request-status request_uids', 'rq_', (o) => o.requests[1], (me, u) =>
    get(`/api/v1/get-request-status?request_uids=${me.requests[0]},${u}`, me.token),
  ),
  probe('set-calendar-batch property_uid', 'pr_', (o) => o.properties[0], (me, u) =>
    post('/api/v1/set-calendar-batch', { property_uid: u, days: [{ date: dates[1], price: 1, currency: 'USD', notes: 'mine now' }] }, me.token),
  ),
  probe('set-calendar-batch property_uid with an Idempotency-Key', 'pr_', (o) => o.properties[1], (me, u) =>
    post('/api/v1/set-calendar-batch', { property_uid: u, days: [{ date: dates[2], is_available: 0 }] }, me.token, { 'Idempotency-Key': `wall-${u}` }),
  ),
  probe('update-task task_uid', 'tk_', (o) => o.tasks[0], (me, u) => post('/api/v1/update-task', { task_uid: u, description: 'taken over' }, me.token)),
  probe('update-task task_uid unassigning', 'tk_', (o) => o.tasks[0], (me, u) => post('/api/v1/update-task', { task_uid: u, cleaner_uid: '' }, me.token)),
  probe('update-task task_uid with every field', 'tk_', (o) => o.tasks[3], (me, u) =>
    post(
      '/api/v1/update-task',
      { task_uid: u, property_uid: me.properties[0], dt: '2031-01-01', tm: '09:00:00', hr: 2, cleaner_uid: me.cleaners[1], description: 'x' },
      me.token,
    ),
  ),
  probe('update-task property_uid', 'pr_', (o) => o.properties[0], (me, u) =>
    post('/api/v1/update-task', { task_uid: me.tasks[1], property_uid: u }, me.token),
  ),
  probe('update-task cleaner_uid', 'tm_', (o) => o.cleaners[1], (me, u) => post('/api/v1/update-task', { task_uid: me.tasks[1], cleaner_uid: u }, me.token)),
];

/** The answer with the uid masked, so a message naming it compares equal; no other difference allowed. */
const masked = (res: { status: number; body: any }, uid: string) => JSON.parse(JSON.stringify({ status: res.status, body: res.body }).replaceAll(uid, '<uid>'));

describe('the tenant wall', () => {
  it('answers every id of the other company exactly as a made-up one, and changes no row of either', async () => {
    const before = { a: await snapshot(t.a.company), b: await snapshot(t.b.company) };
    // Something to lose on each side: 2 properties, 4 bookings, 3 members, 4 tasks, 2 applied requests of 5 days.
    for (const snap of [before.a, before.b]) {
      expect(Object.fromEntries(Object.entries(snap).map(([k, rows]) => [k, rows.length]))).toMatchObject({
        properties: 2, bookings: 4, team_members: 3, tasks: 4, calendar_requests: 2, calendar_days: 10, access_tokens: 1,
      });
    }
    let tried = 0;
    for (const [me, other] of [[t.a, t.b], [t.b, t.a]] as const) {
      for (const probe of probes) {
        const foreign = probe.foreign(other);
        const madeUp = newUid(probe.kind);
        const across = await probe.call(me, foreign);
        const unknown = await probe.call(me, madeUp);
        expect(across.status, `${probe.name}: ${JSON.stringify(across.body)}`).toBeLessThan(500);
        expect(masked(across, foreign), probe.name).toEqual(masked(unknown, madeUp));
        if (across.status !== 200) expect(across.body.error).toMatchObject({ code: 11 });
        tried++;
      }
    }
    expect(tried).toBe(probes.length * 2);
    expect(await snapshot(t.a.company)).toEqual(before.a);
    expect(await snapshot(t.b.company)).toEqual(before.b);
  });

  it('the uids tried do exist: their own company sees them', async () => {
    for (const [me, other] of [[t.a, t.b], [t.b, t.a]] as const) {
      for (const probe of probes) {
        const [uid, madeUp] = [probe.foreign(other), newUid(probe.kind)];
        const own = await probe.call(other, uid);
        const unknown = await probe.call(other, madeUp);
        expect(masked(own, uid), `${probe.name} for ${me.company}`).not.toEqual(masked(unknown, madeUp));
      }
    }
  });

  it('never lists the other company in an unfiltered list, on any page', async () => {
    for (const me of [t.a, t.b]) {
      const bookings = await get('/api/v1/bookings', me.token);
      const tasks = await get('/api/v1/tasks', me.token);
      expect(bookings.body.data.map((b: any) => b.booking_uid).sort()).toEqual([...me.bookings].sort());
      expect(tasks.body.data.map((x: any) => x.task_uid).sort()).toEqual([...me.tasks].sort());
      expect((await get('/api/v1/bookings?page=2', me.token)).body.data).toEqual([]);
    }
  });

  it('reads back only its own calendar', async () => {
    for (const [me, name] of [[t.a, 'Alpha'], [t.b, 'Beta']] as const) {
      const res = await get(`/api/v1/get-calendar-data?property_uid=${me.properties[0]}&${range}`, me.token);
      expect(res.status).toBe(200);
      expect(res.body.data.map((d: any) => d.notes)).toEqual(dates.map((_, i) => `${name} ${i}`));
      expect(res.body.data.every((d: any) => me.requests.includes(d.request_uid))).toBe(true);
    }
  });

  it('keeps Idempotency-Keys per token: the same key on the other side is a new request, not a 409', async () => {
    const key = `shared-${newUid('')}`;
    const batch = (property: string | undefined, minStay: number) => ({ property_uid: property, days: [{ date: dates[3], min_stay: minStay }] });
    const first = await post('/api/v1/set-calendar-batch', batch(t.a.properties[0], 3), t.a.token, { 'Idempotency-Key': key });
    const second = await post('/api/v1/set-calendar-batch', batch(t.b.properties[0], 4), t.b.token, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.data.request_uids).toHaveLength(1);
    expect(second.body.data.request_uids).not.toEqual(first.body.data.request_uids);
  });
});
