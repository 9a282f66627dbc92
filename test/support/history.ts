import fc from 'fast-check';
import type { TestApi } from './api.js';

/*
 * The writers and the feed reader of the content-level history test (issue 40,
 * test/integration/history-content.test.ts): every kind of write through the public API, generated
 * by fast-check from one seed, and a client following get-changes that keeps each entry as it was
 * served. history-check.ts reads what they leave behind.
 */

/** What the writers may touch: uids made by the test's setup. */
export interface World {
  api: TestApi;
  token: string;
  properties: string[];
  tasks: string[];
  /** Bookings whose guest has an email address (messages go out by email to DATA_DIR/outbox). */
  guestBookings: string[];
  /** The calendar dates writers choose from. */
  dates: string[];
  /** The check-in dates direct bookings choose from (each a 2-night stay). */
  stays: string[];
}

export type Op =
  | { op: 'batch'; property: number; days: { date: number; notes?: string; min_stay?: number; is_available?: 0 | 1 }[] }
  | { op: 'range'; property: number; start: number; length: number; notes: string }
  | { op: 'task'; task: number; description: string }
  | { op: 'book'; property: number; stay: number }
  | { op: 'cancel'; pick: number }
  | { op: 'message'; booking: number; text: string }
  | { op: 'door'; property: number; code: string };

/** The operations of one writer, over a world of the given sizes. */
export function opArb(sizes: { properties: number; tasks: number; guestBookings: number; dates: number; stays: number }): fc.Arbitrary<Op> {
  const prop = fc.nat({ max: sizes.properties - 1 });
  const text = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }).filter((s) => s.trim().length > 0);
  const day = fc.record(
    { date: fc.nat({ max: sizes.dates - 1 }), notes: text, min_stay: fc.integer({ min: 1, max: 7 }), is_available: fc.constantFrom(0 as const, 1 as const) },
    { requiredKeys: ['date'] },
  );
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant('batch' as const), property: prop, days: fc.array(day, { minLength: 1, maxLength: 4 }) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('range' as const), property: prop, start: fc.nat({ max: sizes.dates - 1 }), length: fc.integer({ min: 1, max: 4 }), notes: text }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('task' as const), task: fc.nat({ max: sizes.tasks - 1 }), description: text }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('book' as const), property: prop, stay: fc.nat({ max: sizes.stays - 1 }) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('message' as const), booking: fc.nat({ max: sizes.guestBookings - 1 }), text }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('door' as const), property: prop, code: fc.stringMatching(/^[0-9]{4,6}$/) }) },
  );
}

/** What the writers leave for the checks: the uids to wait for, and counts by outcome. */
export interface Written {
  calendarRequests: string[];
  messages: string[];
  reservations: string[];
  outcomes: Map<string, number>;
}

const plusDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Runs one operation; an answer the contract allows under concurrency (409, 412) is an outcome, anything else throws. */
async function apply(w: World, op: Op, out: Written): Promise<string> {
  const { api, token } = w;
  const expectOk = (res: { status: number; body: unknown }, allowed: number[], what: string) => {
    if (!allowed.includes(res.status)) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return `${op.op} ${res.status}`;
  };
  switch (op.op) {
    case 'batch': {
      const days = op.days.map(({ date, ...rest }) => ({ date: w.dates[date]!, ...rest, ...(Object.keys(rest).length === 0 ? { notes: 'touched' } : {}) }));
      const res = await api.post('/api/v1/set-calendar-batch', { property_uid: w.properties[op.property], days }, token);
      if (res.status === 200) out.calendarRequests.push(...(res.body.data.request_uids as string[]));
      return expectOk(res, [200], 'set-calendar-batch');
    }
    case 'range': {
      const start = w.dates[op.start]!;
      const end = w.dates[Math.min(op.start + op.length - 1, w.dates.length - 1)]!;
      const res = await api.post('/api/v1/set-calendar-data', { property_uid: w.properties[op.property], start_date: start, end_date: end, notes: op.notes }, token);
      if (res.status === 200) out.calendarRequests.push(...(res.body.data.request_uids as string[]));
      return expectOk(res, [200], 'set-calendar-data');
    }
    case 'task': {
      const uid = w.tasks[op.task]!;
      const read = await api.get(`/api/v1/tasks?task_uids=${uid}`, token);
      const version = read.body.data[0].version as number;
      const res = await api.post('/api/v1/update-task', { task_uid: uid, description: op.description }, token, { 'If-Match': `"${version}"` });
      return expectOk(res, [200, 412], 'update-task');
    }
    case 'book': {
      const checkin = w.stays[op.stay]!;
      const res = await api.post(
        '/api/v1/book-property',
        { property_uid: w.properties[op.property], checkin_date: checkin, checkout_date: plusDays(checkin, 2), guest_name: 'History Guest', guests: 2, price_total: 200, currency: 'eur' },
        token,
      );
      if (res.status === 200) out.reservations.push(res.body.data.reservation_code as string);
      return expectOk(res, [200, 409], 'book-property');
    }
    case 'cancel': {
      if (out.reservations.length === 0) return 'cancel none';
      const code = out.reservations[op.pick % out.reservations.length]!;
      return expectOk(await api.post('/api/v2/cancel-booking', { reservation_code: code }, token), [200], 'cancel-booking');
    }
    case 'message': {
      const res = await api.post('/api/v1/message-booking-guest', { booking_uid: w.guestBookings[op.booking], message: op.text, channel: 'email' }, token);
      if (res.status === 200) out.messages.push(res.body.data.message_uid as string);
      return expectOk(res, [200], 'message-booking-guest');
    }
    case 'door': {
      const res = await api.post('/api/v2/set-property-door-code', { property_uid: w.properties[op.property], door_access_code: op.code }, token);
      return expectOk(res, [200], 'set-property-door-code');
    }
  }
}

/** Runs the writers concurrently (each its operations in order); `halfway` is called once half of all operations are done. */
export async function runWriters(w: World, writers: Op[][], halfway: () => Promise<void>): Promise<Written> {
  const out: Written = { calendarRequests: [], messages: [], reservations: [], outcomes: new Map() };
  const total = writers.reduce((n, ops) => n + ops.length, 0);
  let done = 0;
  let half: Promise<void> | undefined;
  await Promise.all(
    writers.map(async (ops) => {
      for (const op of ops) {
        const outcome = await apply(w, op, out);
        out.outcomes.set(outcome, (out.outcomes.get(outcome) ?? 0) + 1);
        if (++done === Math.floor(total / 2)) half = halfway();
      }
    }),
  );
  await half;
  return out;
}

/** One entry of get-changes, as it was served. */
export interface FeedEntry {
  change_uid: string;
  kind: string;
  uid: string;
  op: 'upsert' | 'delete';
  changed_dttm: string;
  object: unknown;
}

export interface FeedReader {
  entries: FeedEntry[];
  /** Reads on until `caughtUp` holds and a page comes back empty, then stops. */
  finish(caughtUp: () => Promise<boolean>): Promise<void>;
}

/** Follows get-changes from `cursor` (long-polling) until finished; every entry is kept as served. */
export function followFeed(api: TestApi, token: string, cursor: string): FeedReader {
  const entries: FeedEntry[] = [];
  let caughtUp: (() => Promise<boolean>) | undefined;
  const loop = (async () => {
    for (;;) {
      const finishing = caughtUp !== undefined && (await caughtUp());
      const res = await api.get(`/api/v1/get-changes?cursor=${encodeURIComponent(cursor)}&limit=1000&wait=${finishing ? 0 : 1}`, token);
      if (res.status !== 200) throw new Error(`get-changes: ${res.status} ${JSON.stringify(res.body)}`);
      entries.push(...(res.body.data as FeedEntry[]));
      cursor = res.body.meta.cursor as string;
      if (finishing && res.body.data.length === 0 && !res.body.meta.has_more) return;
    }
  })();
  // A failure of the reader surfaces in finish(); until then it must not be an unhandled rejection.
  void loop.catch(() => undefined);
  return {
    entries,
    async finish(check) {
      caughtUp = check;
      await loop;
    },
  };
}
