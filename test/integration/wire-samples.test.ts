import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoSeed } from '../../bin/demo/seed.js';
import { useWorld } from '../support/world.js';
import { collapsed, compareShape, type ShapeReport } from '../support/wire-shape.js';

/*
 * The iGMS documentation's own examples (test/fixtures/igms-wire-samples.json, per method of the
 * iGMS index: the example request and answer as the pages print them). For each method with an
 * example answer, the example request is sent to the demo (its uids, and dates the demo has, in
 * place of the page's) and the answer compared field by field (test/support/wire-shape.ts): a
 * documented field missing or retyped fails; extra keys are listed in .data/wire-samples-report.json.
 */

interface Sample {
  name: string;
  verb: string | null;
  path: string;
  example_request: Record<string, unknown> | null;
  example_response: unknown;
}
const samples = (JSON.parse(readFileSync(new URL('../fixtures/igms-wire-samples.json', import.meta.url), 'utf8')) as { methods: Sample[] }).methods;
const withExample = samples.filter((s) => typeof s.example_response === 'object' && s.example_response !== null);

const t = useWorld({ api: true });
let demo: DemoSeed;
const w = {} as { property: string; booking: string; requestUid: string; messageUid: string; booked: string; pending: string[] };
const report: Record<string, ShapeReport & { status: number }> = {};

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const get = (path: string) => t.api.get(path, demo.token);
const post = (path: string, body: unknown) => t.api.post(path, body, demo.token);
/** The example request with the demo's uids in place of the page's. */
const withDemo = (s: Sample, extra: Record<string, unknown> = {}) => ({ ...(s.example_request ?? {}), ...('property_uid' in (s.example_request ?? {}) ? { property_uid: w.property } : {}), ...extra });
const book = (status: 'accepted' | 'pending', n: number) =>
  post('/api/v1/book-property', { property_uid: w.property, checkin_date: day(700 + n * 5), checkout_date: day(702 + n * 5), guest_name: 'Wire Sample', guests: 2, price_total: 200, currency: 'USD', booking_status: status });

/** How each method with an example is called against the demo. */
const send: Record<string, (s: Sample) => Promise<{ status: number; body: unknown }>> = {
  'v1/get-properties': () => get('/api/v1/property'),
  'v1/get-property': () => get(`/api/v1/property/${w.property}`),
  'v1/propose-calendar-batch': (s) => post('/api/v1/calendar-batch', withDemo(s)),
  'v1/company': () => get('/api/v1/company'),
  'v1/bookings': () => get('/api/v1/bookings'),
  'v1/get-calendar-data': () => get(`/api/v1/get-calendar-data?property_uid=${w.property}&from_date=${day(1)}&to_date=${day(3)}`),
  'v1/message-booking-guest': () => post('/api/v1/message-booking-guest', { booking_uid: w.booking, message: 'Hello from the wire samples' }),
  'v1/message-status': () => get(`/api/v1/message-status?message_uid=${w.messageUid}`),
  'v1/get-request-status': () => get(`/api/v1/get-request-status?request_uid=${w.requestUid}`),
  'v1/set-calendar-batch': (s) => post('/api/v1/set-calendar-batch', withDemo(s)),
  'v1/book-property': () => book('accepted', 0),
  // The page's dates hold no thread of the demo: its last month does.
  'v1/get-threads': (s) => get(`/api/v1/get-threads?fromDate=${day(-60)}&toDate=${day(1)}&page=${Number(s.example_request?.page ?? 1)}`),
  'v2/cancel-booking': () => post('/api/v2/cancel-booking', { reservation_code: w.booked }),
  'v2/accept-reservation': () => post('/api/v2/accept-reservation', { reservation_code: w.pending[0] }),
  'v2/decline-reservation': () => post('/api/v2/decline-reservation', { reservation_code: w.pending[1] }),
  'v2/set-property-calendar-availability': (s) => post('/api/v2/set-property-calendar-availability', withDemo(s, { start_date: day(400), end_date: day(405) })),
};

beforeAll(async () => {
  demo = await seedDemo(t.api.ctx.services, { bookings: 200, seed: 36 });
  w.property = demo.propertyUids[0]!;
  const bookings = (await get(`/api/v1/bookings?property_uid=${w.property}`)).body.data as Array<{ booking_uid: string }>;
  w.booking = bookings[0]!.booking_uid;
  w.requestUid = (await post('/api/v1/set-calendar-batch', { property_uid: w.property, days: [{ date: day(30), price: 90, currency: 'USD' }] })).body.data.request_uids[0];
  w.messageUid = (await post('/api/v1/message-booking-guest', { booking_uid: w.booking, message: 'Hi' })).body.data.message_uid;
  // The pages' examples are of a failed message and a failed request: their state here too (no
  // worker runs in this file; the statuses are what a failed send and a failed apply store).
  const db = t.tdb.database.db;
  await db.execute(sql`update messages set status = 'error', message_error = 'connector answered 400' where uid = ${w.messageUid}`);
  await db.execute(sql`update calendar_requests set status = 'error', request_error = 'Cannot perform action' where uid = ${w.requestUid}`);
  w.booked = (await book('accepted', 1)).body.data.reservation_code;
  w.pending = [(await book('pending', 2)).body.data.reservation_code, (await book('pending', 3)).body.data.reservation_code];
}, 60_000);

afterAll(() => {
  mkdirSync(new URL('../../.data/', import.meta.url), { recursive: true });
  writeFileSync(new URL('../../.data/wire-samples-report.json', import.meta.url), `${JSON.stringify(report, null, 1)}\n`);
});

describe('the iGMS documentation examples, field by field', () => {
  it('has a way to call every method with an example answer', () => {
    expect(withExample.map((s) => s.name).filter((n) => !(n in send))).toEqual([]);
  });

  it.each(withExample.map((s) => [s.name, s] as const))('%s answers every documented field with its documented type', async (name, sample) => {
    const res = await send[name]!(sample);
    const r = collapsed(compareShape(sample.example_response, res.body));
    report[name] = { status: res.status, ...r };
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect({ missing: r.missing, retyped: r.retyped }).toEqual({ missing: [], retyped: [] });
  });
});
