import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertMessage, threadOfBooking } from '../../shared/domain/messaging/index.js';
import { utcDateTime } from '../../shared/infra/time.js';
import { ConsoleClient, createUser } from '../support/console.js';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { seedDemo } from '../../bin/demo/seed.js';

/*
 * The console's Properties, Requests, Reservation requests and Inbox pages over plain HTTP: the
 * tenant wall (another company's property, thread or request answers as unknown and nothing
 * changes), the CSRF guard and sign-in on every POST, bad input as a clear 400, the calendar
 * control flag and its change record. The browser test (console-pages-browser) covers the use.
 */

const t = useWorld({ api: true });
const db = () => t.tdb.database.db;
const w = {} as {
  company: string;
  property: string;
  owner: { email: string; password: string };
  manager: { email: string; password: string };
  rival: string;
  rivalProperty: string;
  rivalThread: number;
  rivalRequest: string;
  rivalCalendarRequest: string;
};

beforeAll(async () => {
  w.company = await createCompany(db(), 'Acme Stays');
  w.property = await createProperty(db(), w.company, { name: 'Acme loft' });
  w.owner = await createUser(db(), w.company, { role: 'owner' });
  w.manager = await createUser(db(), w.company, { role: 'manager' });
  w.rival = await createCompany(db(), 'Rival Rentals');
  w.rivalProperty = await createProperty(db(), w.rival, { name: 'Rival chalet' });
  const [chat, request] = await createBookings(db(), [
    bookingRow(w.rival, w.rivalProperty, { legacyOverlap: false, reservationCode: 'RIVALCHAT' }),
    bookingRow(w.rival, w.rivalProperty, {
      legacyOverlap: false,
      platformType: 'airgms',
      bookingStatus: 'pending',
      bookedDttm: utcDateTime(new Date()),
      reservationCode: 'RIVALREQ',
      localCheckinDttm: '2030-03-01 15:00:00',
      localCheckoutDttm: '2030-03-03 11:00:00',
    }),
  ]);
  w.rivalThread = (await threadOfBooking(db(), w.rival, { bookingUid: chat!.bookingUid }))!.id;
  await insertMessage(db(), w.rival, w.rivalThread, { direction: 'inbound', channel: 'platform', text: 'rival secret text' });
  w.rivalRequest = request!.bookingUid!;
  w.rivalCalendarRequest = 'rq_rival_only';
  await db().execute(sql`insert into calendar_requests (uid, company_uid, property_uid, status, days, days_total)
    values (${w.rivalCalendarRequest}, ${w.rival}, ${w.rivalProperty}, 'completed', '[]'::jsonb, 0)`);
});

async function signedIn(who: { email: string; password: string }) {
  const c = new ConsoleClient(t.api.baseUrl);
  expect((await c.signIn(who.email, who.password)).status).toBe(303);
  return c;
}

const flag = async (uid: string) =>
  (await db().execute<{ allowed: boolean; changes: number }>(sql`
    select calendar_control_allowed as allowed, (select count(*)::int from changes where kind = 'property' and object_uid = ${uid}) as changes
      from properties where uid = ${uid}`))[0]!;
const bookingStatus = async (uid: string) => (await db().execute<{ s: string }>(sql`select booking_status as s from bookings where booking_uid = ${uid}`))[0]!.s;
const messageCount = async (threadId: number) => (await db().execute<{ n: number }>(sql`select count(*)::int as n from messages where thread_id = ${threadId}`))[0]!.n;

describe('the tenant wall', () => {
  it('never lists or shows another company’s property, request or thread', async () => {
    const c = await signedIn(w.manager);
    const list = await c.get('/app/properties');
    expect(list.status).toBe(200);
    expect(list.text).toContain('Acme loft');
    expect(list.text).not.toContain('Rival chalet');
    const theirs = await c.get(`/app/properties/${w.rivalProperty}`);
    expect(theirs.status).toBe(404);
    expect(theirs.text).not.toContain('Rival chalet');
    expect((await c.get(`/app/properties/${w.rivalProperty}?date=2030-03-01`)).status).toBe(404);
    for (const path of ['/app/requests', '/app/requests/rows']) expect((await c.get(path)).text).not.toContain(w.rivalCalendarRequest);
    expect((await c.get('/app/reservation-requests')).text).not.toContain('RIVALREQ');
    expect((await c.get('/app/inbox')).text).not.toContain('RIVALCHAT');
    for (const path of [`/app/inbox/${w.rivalThread}`, `/app/inbox/${w.rivalThread}/messages`]) {
      const page = await c.get(path);
      expect(page.status).toBe(404);
      expect(page.text).not.toContain('rival secret text');
    }
  });

  it('changes nothing of another company: calendar control, a reservation request, a reply', async () => {
    const c = await signedIn(w.owner);
    const csrf = await c.csrf('/app/properties');
    expect((await c.post(`/app/properties/${w.rivalProperty}/calendar-control`, { _csrf: csrf, allowed: '0' })).status).toBe(404);
    expect(await flag(w.rivalProperty)).toEqual({ allowed: true, changes: 0 });
    for (const verb of ['accept', 'decline']) expect((await c.post(`/app/reservation-requests/${w.rivalRequest}/${verb}`, { _csrf: csrf })).status).toBe(404);
    expect(await bookingStatus(w.rivalRequest)).toBe('pending');
    expect((await c.post(`/app/inbox/${w.rivalThread}/reply`, { _csrf: csrf, message: 'hi', channel: 'email' })).status).toBe(404);
    expect(await messageCount(w.rivalThread)).toBe(1);
  });

  it('is not opened by an API token: the pages want a signed-in person', async () => {
    const { token } = await createToken(db(), w.company, ['calendar-control', 'messaging', 'direct-bookings']);
    const anon = new ConsoleClient(t.api.baseUrl);
    for (const path of ['/app/properties', '/app/requests/rows', '/app/inbox', '/app/reservation-requests']) {
      const res = await anon.request('GET', path, undefined, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(303);
      expect(res.location).toContain('/app/login.html');
    }
  });
});

describe('forms: CSRF and sign-in on every POST', () => {
  it('refuses a POST without the session’s token (403) or signed out (401), changing nothing', async () => {
    const [pending] = await createBookings(db(), [
      bookingRow(w.company, w.property, { legacyOverlap: false, platformType: 'airgms', bookingStatus: 'pending', bookedDttm: utcDateTime(new Date()), localCheckinDttm: '2030-04-01 15:00:00', localCheckoutDttm: '2030-04-02 11:00:00' }),
    ]);
    const posts = [`/app/properties/${w.property}/calendar-control`, `/app/reservation-requests/${pending!.bookingUid}/accept`, '/app/inbox/1/reply'];
    const c = await signedIn(w.manager);
    for (const path of posts) {
      expect((await c.post(path, { allowed: '0', message: 'x' })).status).toBe(403);
      expect((await c.post(path, { _csrf: 'forged', allowed: '0', message: 'x' })).status).toBe(403);
    }
    const stranger = new ConsoleClient(t.api.baseUrl);
    const csrf = await stranger.csrf();
    for (const path of posts) expect((await stranger.post(path, { _csrf: csrf, allowed: '0', message: 'x' })).status).toBe(401);
    expect((await flag(w.property)).allowed).toBe(true);
    expect(await bookingStatus(pending!.bookingUid)).toBe('pending');
  });
});

describe('bad input', () => {
  it('answers a clear 400 for a bad month, date, flag, page, thread id or reply', async () => {
    const c = await signedIn(w.manager);
    const csrf = await c.csrf('/app/properties');
    const cases: [Promise<{ status: number; text: string }>, string][] = [
      [c.get(`/app/properties/${w.property}?month=2030-13`), 'month must be YYYY-MM'],
      [c.get(`/app/properties/${w.property}?date=2030-02-31x`), 'date must be YYYY-MM-DD'],
      [c.post(`/app/properties/${w.property}/calendar-control`, { _csrf: csrf, allowed: 'yes' }), 'allowed must be 1 or 0'],
      [c.get('/app/reservation-requests?page=0'), 'page must be a whole number from 1'],
      [c.get('/app/inbox/abc'), 'thread_id must be a thread id'],
    ];
    for (const [res, message] of cases) {
      const page = await res;
      expect(page.status, message).toBe(400);
      expect(page.text).toContain(message);
    }
    const b = (await createBookings(db(), [bookingRow(w.company, w.property, { legacyOverlap: false, localCheckinDttm: '2030-05-01 15:00:00', localCheckoutDttm: '2030-05-02 11:00:00' })]))[0]!;
    const thread = (await threadOfBooking(db(), w.company, { bookingUid: b.bookingUid }))!.id;
    for (const [form, message] of [
      [{ message: '   ' }, 'message must not be blank'],
      [{ message: 'hi', channel: 'sms' }, 'channel must be one of: platform, email'],
    ] as const) {
      const page = await c.post(`/app/inbox/${thread}/reply`, { _csrf: csrf, ...form });
      expect(page.status).toBe(400);
      expect(page.text).toContain(message);
    }
    expect(await messageCount(thread)).toBe(0);
  });
});

describe('calendar control', () => {
  it('is set by an owner or a manager, one property change recorded per real change', async () => {
    const prop = await createProperty(db(), w.company, { name: 'Flag flat' });
    for (const [who, allowed] of [[w.manager, '0'], [w.owner, '0'], [w.owner, '1']] as const) {
      const c = await signedIn(who);
      const res = await c.post(`/app/properties/${prop}/calendar-control`, { _csrf: await c.csrf(`/app/properties/${prop}`), allowed, back: '2030-07' });
      expect(res.status).toBe(303);
      expect(res.location).toMatch(new RegExp(`/app/properties/${prop}\\?done=control&month=2030-07$`));
    }
    // false (a change), false again (none), true (a change).
    expect(await flag(prop)).toEqual({ allowed: true, changes: 2 });
  });
});

describe('reservation requests', () => {
  it('refuses to answer a request twice (409, the first answer kept)', async () => {
    const [b] = await createBookings(db(), [
      bookingRow(w.company, w.property, { legacyOverlap: false, platformType: 'airgms', bookingStatus: 'pending', bookedDttm: utcDateTime(new Date()), reservationCode: 'TWICE001', localCheckinDttm: '2030-06-01 15:00:00', localCheckoutDttm: '2030-06-03 11:00:00' }),
    ]);
    const c = await signedIn(w.manager);
    const csrf = await c.csrf('/app/reservation-requests');
    expect((await c.post(`/app/reservation-requests/${b!.bookingUid}/accept`, { _csrf: csrf })).status).toBe(303);
    const again = await c.post(`/app/reservation-requests/${b!.bookingUid}/decline`, { _csrf: csrf });
    expect(again.status).toBe(409);
    expect(again.text).toContain(`Reservation ${b!.bookingUid} is not a pending request (it is accepted)`);
    expect(await bookingStatus(b!.bookingUid)).toBe('accepted');
  });
});

describe('server time on the demo data', () => {
  it('answers each page (measured and logged: the target is under 100 ms)', async () => {
    const demo = await seedDemo(t.api.ctx.services, { companyName: 'Demo Stays' });
    const who = await createUser(db(), demo.companyUid, { role: 'manager' });
    const prop = demo.propertyUids[0]!;
    // The demo has no calendar requests or threads: 50 requests with warnings, 10 threads of 5 messages.
    await db().execute(sql`insert into calendar_requests (uid, company_uid, property_uid, app_uid, status, days, days_total, days_applied, warnings)
      select 'rq_demo_' || i, ${demo.companyUid}, ${prop}, ${demo.appUid}, 'completed', '[]'::jsonb, 30, 29, '{"2020-01-01": "date is in the past"}'::jsonb
        from generate_series(1, 50) i`);
    const booked = await db().execute<{ booking_uid: string }>(sql`select booking_uid from bookings where company_uid = ${demo.companyUid} order by booking_uid limit 10`);
    let threadId = 0;
    for (const b of booked) {
      threadId = (await threadOfBooking(db(), demo.companyUid, { bookingUid: b.booking_uid }))!.id;
      for (let i = 0; i < 5; i++) await insertMessage(db(), demo.companyUid, threadId, { direction: 'inbound', channel: 'platform', text: `message ${i}` });
    }
    // Proposals: 10 pending on a property without calendar control, 30 dates each. Webhooks: the
    // demo app's, with 60 events of 2 attempts each (the page shows the latest 25).
    const proposed = demo.propertyUids[1]!;
    await db().execute(sql`update properties set calendar_control_allowed = false where uid = ${proposed}`);
    for (let i = 0; i < 10; i++) {
      const from = Date.now() + (5 + i * 30) * 86_400_000;
      const days = Array.from({ length: 30 }, (_, k) => ({ date: new Date(from + k * 86_400_000).toISOString().slice(0, 10), price: 100 + k, currency: 'USD', notes: `note ${k}` }));
      expect((await t.api.post('/api/v1/calendar-batch', { property_uid: proposed, days }, demo.token)).status).toBe(200);
    }
    await db().execute(sql`insert into webhooks (app_uid, company_uid, url, secret) values (${demo.appUid}, ${demo.companyUid}, 'https://hooks.example.com/demo', 'whsec_demo')`);
    await db().execute(sql`insert into webhook_events (uid, company_uid, app_uid, status, attempts)
      select 'ev_demo_' || i, ${demo.companyUid}, ${demo.appUid}, 'delivered', 2 from generate_series(1, 60) i`);
    await db().execute(sql`insert into webhook_deliveries (event_uid, attempt, url, status_code, error, duration_ms)
      select 'ev_demo_' || i, a, 'https://hooks.example.com/demo', case a when 1 then 503 else 200 end, null, 40 from generate_series(1, 60) i, generate_series(1, 2) a`);
    const c = await signedIn(who);
    const month = new Date().toISOString().slice(0, 7);
    const pages = {
      properties: '/app/properties',
      'property month': `/app/properties/${prop}`,
      'month + provenance': `/app/properties/${prop}?month=${month}&date=${month}-15`,
      requests: '/app/requests',
      'requests refresh': '/app/requests/rows',
      'reservation requests': '/app/reservation-requests',
      inbox: '/app/inbox',
      thread: `/app/inbox/${threadId}`,
      proposals: '/app/proposals',
      webhooks: '/app/webhooks',
    };
    const report: Record<string, string> = {};
    for (const [name, path] of Object.entries(pages)) {
      const times: number[] = [];
      for (let i = 0; i < 23; i++) {
        const start = performance.now();
        const res = await c.get(path);
        if (i >= 3) times.push(performance.now() - start);
        expect(res.status, `${name}: ${res.text.slice(0, 200)}`).toBe(200);
      }
      times.sort((a, b) => a - b);
      report[name] = `median ${times[10]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`;
    }
    // Round trips over loopback (an upper bound of the server time), 20 each after 3 warm-ups.
    console.log(`console page times on the demo data (${demo.bookings} bookings, ${demo.propertyUids.length} properties):\n${JSON.stringify(report, null, 2)}`);
  });
});
