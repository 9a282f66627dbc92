import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../shared/domain/auth/index.js';
import { verifySignature } from '../../shared/platform/outbound-http/index.js';
import { bookingRow, createBookings, createCompany, createProperty, createTask, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { fanOut, recordEvents, until } from '../support/webhook-events.js';

/*
 * Events for every change (docs/api.md "Told when anything changes"): made from the change feed's
 * rows (one outbox), event_uid = the feed's change_uid, data = the object's wire form, only to apps
 * subscribed to the type (patterns) whose scopes read the kind, never across companies. The real
 * write paths (update-task, the calendar apply) through the real queue and worker.
 */
const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_BACKOFF_MS: '50', WEBHOOK_TIMEOUT_MS: '500' };
const t = useWorld({ queue: 'redis', env });
const receivers: WebhookReceiver[] = [];
let company: string;
let property: string;

/** A new app with the scopes, subscribed to `events` at a receiver of its own. */
const subscriber = async (scopes: Scope[], events: string[], of = company) => {
  const r = await startWebhookReceiver();
  receivers.push(r);
  const issued = await createToken(t.tdb.database.db, of, scopes);
  const set = await t.p.api.post('/api/v1/set-webhook', { url: r.url, events }, issued.token);
  expect(set.status).toBe(200);
  return { ...issued, secret: set.body.data.secret as string, r, bodies: () => r.received.map((x) => JSON.parse(x.rawBody)) };
};
/** Fans out and lets the worker deliver what it will; then everything due has arrived. */
const settle = async () => {
  await fanOut(t.p.ctx);
  await new Promise((r) => setTimeout(r, 400));
};

beforeAll(async () => {
  await t.p.startWorkers(1);
  company = await createCompany(t.tdb.database.db);
  property = await createProperty(t.tdb.database.db, company);
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

describe('events from the change feed', () => {
  it('task.updated from update-task: data as tasks lists it, event_uid = the change_uid, only to readers subscribed to it', async () => {
    const tasksApp = await subscriber(['tasks'], ['task.*']);
    const wildcardNoScope = await subscriber(['calendar-control'], ['*']);
    const otherType = await subscriber(['messaging'], ['booking.*']);
    const otherCompany = await subscriber(['tasks'], ['*'], await createCompany(t.tdb.database.db));
    const task = await createTask(t.tdb.database.db, company, property);
    await fanOut(t.p.ctx);
    const head = (await t.p.api.get('/api/v1/get-changes?cursor=now', tasksApp.token)).body.meta.cursor;
    const res = await t.p.api.post('/api/v1/update-task', { task_uid: task.taskUid, description: 'Deep clean' }, tasksApp.token);
    expect(res.status).toBe(200);
    await fanOut(t.p.ctx);
    await until(() => tasksApp.r.received.length === 1);
    const got = tasksApp.r.received[0]!;
    const body = JSON.parse(got.rawBody);
    const change = (await t.p.api.get(`/api/v1/get-changes?cursor=${head}&kinds=task`, tasksApp.token)).body.data[0];
    const listed = (await t.p.api.get(`/api/v1/tasks?task_uids=${task.taskUid}`, tasksApp.token)).body.data[0];
    expect(body).toEqual({ event_uid: change.change_uid, type: 'task.updated', created_dttm: change.changed_dttm, data: listed });
    expect(body.data.description).toBe('Deep clean');
    expect(got.headers['x-webhook-id']).toBe(change.change_uid);
    expect(verifySignature(tasksApp.secret, String(got.headers['x-webhook-signature']), got.rawBody)).toBe(true);
    await settle();
    expect(tasksApp.r.received).toHaveLength(1);
    for (const none of [wildcardNoScope, otherType, otherCompany]) expect(none.r.received).toEqual([]);
  });

  it('booking events: the scopes shape data (door code with smart-locks only); a cancelled booking is booking.cancelled', async () => {
    const locks = await subscriber(['smart-locks'], ['booking.*']);
    const messaging = await subscriber(['messaging'], ['booking.cancelled']);
    const [b] = await createBookings(t.tdb.database.db, [bookingRow(company, property, { doorAccessCode: '4821' })]);
    await recordEvents(t.tdb.database.db, company, 'booking', 'booking.updated', [b!.bookingUid]);
    await recordEvents(t.tdb.database.db, company, 'booking', 'booking.cancelled', [b!.bookingUid]);
    await fanOut(t.p.ctx);
    await until(() => locks.r.received.length === 2 && messaging.r.received.length === 1);
    expect(locks.bodies().map((x) => x.type)).toEqual(['booking.updated', 'booking.cancelled']);
    expect(locks.bodies()[0].data).toMatchObject({ booking_uid: b!.bookingUid, door_access_code: '4821' });
    expect(messaging.bodies()[0]).toMatchObject({ type: 'booking.cancelled', data: { booking_uid: b!.bookingUid } });
    expect(messaging.bodies()[0].data).not.toHaveProperty('door_access_code');
    expect(messaging.bodies()[0].event_uid).toBe(locks.bodies()[1].event_uid);
  });

  it('calendar.days.changed per applied request with the dates and their values, and calendar.request.finished only where subscribed', async () => {
    const all = await subscriber(['calendar-control'], ['calendar.*']);
    const daysOnly = await subscriber(['calendar-control'], ['calendar.days.changed']);
    const dates = futureDates(2);
    const res = await t.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days: dates.map((date) => ({ date, notes: 'hello', max_stay: 5, closed_to_departure: true })) }, all.token);
    const [uid] = res.body.data.request_uids as string[];
    await waitForFinal(t.p.api, all.token, [uid!]);
    await fanOut(t.p.ctx);
    await until(() => all.r.received.length === 2 && daysOnly.r.received.length === 1);
    const days = daysOnly.bodies()[0];
    expect(days).toMatchObject({ event_uid: expect.stringMatching(/^ch_\d+$/), type: 'calendar.days.changed', data: { property_uid: property } });
    expect(days.data.days.map((d: { date: string; notes: string; max_stay: number; closed_to_departure: number }) => [d.date, d.notes, d.max_stay, d.closed_to_departure])).toEqual(
      dates.map((d) => [d, 'hello', 5, 1]),
    );
    const cal = (await t.p.api.get(`/api/v1/get-calendar-data?property_uid=${property}&from_date=${dates[0]}&to_date=${dates[1]}`, all.token)).body.data;
    expect(days.data.days).toEqual(cal);
    expect(all.bodies().map((x) => x.type).sort()).toEqual(['calendar.days.changed', 'calendar.request.finished']);
    // A request of the app subscribed to calendar.days.changed only: its days, never its request.finished.
    const own = await t.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days: [{ date: dates[0], notes: 'again' }] }, daysOnly.token);
    await waitForFinal(t.p.api, daysOnly.token, own.body.data.request_uids as string[]);
    await fanOut(t.p.ctx);
    await until(() => daysOnly.r.received.length === 2 && all.r.received.length === 3);
    await settle();
    expect(daysOnly.bodies().map((x) => x.type)).toEqual(['calendar.days.changed', 'calendar.days.changed']);
    expect(all.bodies().map((x) => x.type).sort()).toEqual(['calendar.days.changed', 'calendar.days.changed', 'calendar.request.finished']);
  });

  it('each change becomes an event once, however often and from however many places the fan-out runs', async () => {
    const app = await subscriber(['tasks'], ['task.updated']);
    const tasks = await Promise.all([1, 2, 3].map(() => createTask(t.tdb.database.db, company, property)));
    await recordEvents(t.tdb.database.db, company, 'task', 'task.updated', tasks.map((x) => x.taskUid));
    await Promise.all([fanOut(t.p.ctx), fanOut(t.p.ctx), fanOut(t.p.ctx)]);
    // All three arrive (however busy the machine), then nothing more: no change became two events.
    await until(() => app.r.received.length >= 3);
    await settle();
    expect(app.bodies().map((x) => x.data.task_uid).sort()).toEqual(tasks.map((x) => x.taskUid).sort());
  });

  it('calendar.days.changed carries exactly the dates of its own change when one fan-out pass takes several changes of a property', async () => {
    const app = await subscriber(['calendar-control'], ['calendar.days.changed']);
    const dates = futureDates(5).slice(2);
    const own = new Map<string, string[]>();
    // Three requests of one property, applied before a single fan-out pass: each its own dates.
    for (const [i, some] of [[dates[0]!, dates[1]!], [dates[1]!, dates[2]!], [dates[2]!]].entries()) {
      const res = await t.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days: some.map((date) => ({ date, notes: `pass ${i}` })) }, app.token);
      const [uid] = res.body.data.request_uids as string[];
      await waitForFinal(t.p.api, app.token, [uid!]);
      own.set(`pass ${i}`, some);
    }
    await fanOut(t.p.ctx);
    await until(() => app.r.received.length === 3);
    const got = app.bodies().map((b) => (b.data.days as { date: string }[]).map((d) => d.date));
    expect(got).toEqual([...own.values()]);
  });

  it("a booking reads the same in its event, in the feed and in the list: its property's door code where it has none", async () => {
    const locks = await subscriber(['smart-locks'], ['booking.*']);
    const [b] = await createBookings(t.tdb.database.db, [bookingRow(company, property, { doorAccessCode: null })]);
    const set = await t.p.api.post('/api/v2/set-property-door-code', { property_uid: property, door_access_code: '7310' }, locks.token);
    expect(set.status).toBe(200);
    const head = (await t.p.api.get('/api/v1/get-changes?cursor=now', locks.token)).body.meta.cursor;
    await recordEvents(t.tdb.database.db, company, 'booking', 'booking.updated', [b!.bookingUid]);
    await fanOut(t.p.ctx);
    await until(() => locks.bodies().some((e) => e.type === 'booking.updated'));
    const listed = (await t.p.api.get(`/api/v1/bookings?booking_uids=${b!.bookingUid}`, locks.token)).body.data[0];
    const changes = (await t.p.api.get(`/api/v1/get-changes?cursor=${head}&kinds=booking`, locks.token)).body.data;
    expect(listed.door_access_code).toBe('7310');
    expect(changes.at(-1).object).toEqual(listed);
    expect(locks.bodies().at(-1).data).toEqual(listed);
  });
});
