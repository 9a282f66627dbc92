import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bookingSchema, bookingStatuses, platformTypes } from '../../shared/domain/bookings/index.js';
import { calendarDaySchema } from '../../shared/domain/calendar/index.js';
import { requestStatusSchema } from '../../shared/platform/requests/index.js';
import { taskSchema } from '../../shared/domain/tasks/index.js';
import {
  as,
  dateChoices,
  hostileQueryString,
  isStorable,
  leaf,
  listItems,
  madeUpUid,
  realDate,
  tokenCase,
  uidListChoices,
  yearsBelow100,
  type Choices,
  type Gen,
} from '../support/arbitraries.js';
import { param, queryOf, request } from '../support/hostile-requests.js';
import { useHostileWorld, expectationFor, judgeAnswer, memoryMb, pathWithQuery, type Expectation } from '../support/hostile.js';

/*
 * Fuzz of the four GET methods: every query parameter absent, given once or twice, with valid,
 * impossible and hostile values, plus unknown parameters and every way of presenting a token.
 * Every answer is judged: the exact error (and parameter) where the contract refuses, the right
 * 200 shape where it accepts, never a 5xx.
 */

type Pairs = Array<[string, string]>;
const CONCURRENCY = 4;
const w = useHostileWorld('hostile-queries');

/** `requests` generated requests, sent CONCURRENCY at a time over keep-alive sockets, each judged. */
async function fuzz(label: string, path: string, query: fc.Arbitrary<Gen<Pairs>>, accepted: (pairs: Pairs) => Expectation, requests: number) {
  const oneCase = fc.tuple(tokenCase(w.tokens), query).filter(([tok, q]) => pathWithQuery(path, [...q.value, ...tok.pairs]).length < 15_000);
  await fc.assert(
    fc.asyncProperty(fc.array(oneCase, { minLength: CONCURRENCY, maxLength: CONCURRENCY }), async (cases) => {
      await Promise.all(
        cases.map(async ([tok, q]) => {
          const pairs = [...q.value, ...tok.pairs];
          const res = await w.client.send(label, { method: 'GET', path: pathWithQuery(path, pairs), headers: tok.headers });
          judgeAnswer(res, tok.refused ?? expectationFor(q, () => accepted(q.value)), { pairs, headers: tok.headers, verdict: q.verdict, param: q.param });
        }),
      );
    }),
    { numRuns: Math.ceil(requests / CONCURRENCY) },
  );
}

const meta = z.object({ page: z.number().int().min(1), has_next_page: z.boolean() }).strict();
const pageOf = (item: z.ZodType) => z.object({ data: z.array(item).max(25), meta }).strict();
/** The value of a parameter; one sent empty is absent (Conventions). */
const valueOf = (pairs: Pairs, key: string) => pairs.find(([k, v]) => k === key && v !== '')?.[1];

const page = leaf({
  valid: fc.oneof(fc.integer({ min: 1, max: 3 }).map(String), fc.constantFrom('1000000', '0001')),
  invalid: fc.oneof(
    fc.constantFrom('1000001', '0', '-1', '1.5', '1e3', '99999999999999999999', ' 1', '+1', 'NaN', 'Infinity', '', '0x1'),
    hostileQueryString.filter((s) => !(/^\d+$/.test(s) && Number(s) >= 1 && Number(s) <= 1_000_000)),
  ),
});

/** A uid query parameter: known, made up or any string of 1 to 100 characters; else refused. */
const uidChoices = (known: readonly string[]) =>
  leaf({
    valid: fc.oneof(fc.constantFrom(...known), madeUpUid, hostileQueryString.filter((s) => s.length >= 1 && s.length <= 100 && isStorable(s))),
    invalid: fc.oneof(fc.constantFrom('', 'x'.repeat(101), 'rq_\u0000'), hostileQueryString.filter((s) => s.length > 100 || !isStorable(s))),
  });

describe('hostile query strings: never a 5xx, always the right code', () => {
  it('GET /bookings', { timeout: 120_000 }, async () => {
    const dateKeys = ['from_date', 'to_date', 'from_created_date', 'to_created_date', 'from_updated_date', 'to_updated_date', 'from_booked_date', 'to_booked_date'];
    const statuses: readonly string[] = bookingStatuses;
    const platforms: readonly string[] = platformTypes;
    const query = queryOf({
      booking_uids: param('booking_uids', uidListChoices(w.bookings)),
      booking_status: param(
        'booking_status',
        leaf({
          // Matched case-insensitively (Inputs as iGMS clients send them).
          valid: fc.oneof(fc.constantFrom(...statuses), fc.constantFrom(...statuses).map((s) => s.toUpperCase())),
          invalid: fc.oneof(fc.constantFrom('accepted ', '', 'new,accepted'), hostileQueryString.filter((s) => !statuses.includes(s.toLowerCase()))),
        }),
      ),
      platform_type: param(
        'platform_type',
        leaf({
          valid: fc.subarray([...platforms], { minLength: 1 }).map((a) => a.join(',')),
          invalid: fc
            .tuple(fc.subarray([...platforms]), hostileQueryString.filter((s) => listItems(s).some((x) => !platforms.includes(x.toLowerCase()))))
            .map(([a, b]) => [...a, b].join(',')),
          maybe: fc.constantFrom('', ',', ' , '),
        }),
      ),
      property_uid: param('property_uid', uidListChoices(w.properties)),
      order_by_created_dttm: param(
        'order_by_created_dttm',
        leaf({
          valid: fc.constantFrom('true', 'false', '1', '0'),
          invalid: fc.oneof(fc.constantFrom('yes', 'no', '', '2', 'on', ' true'), hostileQueryString.filter((s) => !['true', 'false', '1', '0'].includes(s.toLowerCase()))),
          maybe: fc.constantFrom('TRUE', 'False', 'tRuE'),
        }),
      ),
      page: param('page', page),
      ...Object.fromEntries(dateKeys.map((k) => [k, param(k, dateChoices(true))])),
    });
    const ownBooking = bookingSchema.strict().refine((b) => w.properties.includes(b.property_uid), 'a booking of another company');
    await fuzz('GET bookings', '/api/v1/bookings', request(query), () => ({ ok: pageOf(ownBooking) }), 1500);
  });

  it('GET /tasks', { timeout: 120_000 }, async () => {
    const query = queryOf({
      task_uids: param('task_uids', uidListChoices(w.tasks)),
      property_uids: param('property_uids', uidListChoices(w.properties)),
      from_date: param('from_date', dateChoices(true)),
      to_date: param('to_date', dateChoices(true)),
      page: param('page', page),
    });
    const ownTask = taskSchema.strict().refine((t) => w.properties.includes(t.property_uid), 'a task of another company');
    await fuzz('GET tasks', '/api/v1/tasks', request(query), () => ({ ok: pageOf(ownTask) }), 1300);
  });

  it('GET /get-calendar-data', { timeout: 120_000 }, async () => {
    // from_date and to_date together: the range rules (to not before from, at most 366 days) span both.
    const from = realDate.filter((d) => d < '9998');
    const range = (f: string, to: string): Pairs => [['from_date', f], ['to_date', to]];
    const dates = dateChoices(false, true);
    const fault = (p: string, pairs: fc.Arbitrary<Pairs>) => pairs.map((value): Gen<Pairs> => ({ value, verdict: 'invalid', param: p }));
    const rangeChoices: Choices<Pairs> = {
      valid: as('valid', fc.tuple(from, fc.integer({ min: 0, max: 365 })).map(([f, n]) => range(f, addDays(f, n)))),
      invalid: fc.oneof(
        fault('to_date', fc.tuple(from, fc.oneof(fc.integer({ min: 366, max: 1000 }), fc.integer({ min: -400, max: -1 }))).map(([f, n]) => range(f, addDays(f, n)))),
        fault('from_date', fc.tuple((dates.invalid as fc.Arbitrary<Gen<string>>).map((g) => g.value), from).map(([f, t]) => range(f, t))),
        fault('to_date', fc.tuple(from, (dates.invalid as fc.Arbitrary<Gen<string>>).map((g) => g.value)).map(([f, t]) => range(f, t))),
        fault('from_date', from.map((f): Pairs => [['to_date', f]])),
        fault('to_date', from.map((f): Pairs => [['from_date', f]])),
        fault('from_date', from.map((f): Pairs => [['from_date', f], ['from_date', f], ['to_date', f]])),
      ),
      maybe: as('maybe', yearsBelow100.map((d) => range(d, d))),
    };
    const query = queryOf({ property_uid: param('property_uid', uidChoices(w.properties), true), '': rangeChoices });
    await fuzz('GET get-calendar-data', '/api/v1/get-calendar-data', request(query), (pairs) => {
      const propertyUid = valueOf(pairs, 'property_uid') as string;
      if (!w.properties.includes(propertyUid)) return { status: 404, code: 11, param: 'property_uid' };
      const [f, t] = [valueOf(pairs, 'from_date') as string, valueOf(pairs, 'to_date') as string];
      const days = z
        .array(calendarDaySchema.strict().refine((d) => d.property_uid === propertyUid))
        .refine(
          (ds) => ds[0]?.date === f && ds.at(-1)?.date === t && ds.every((d, i) => i === 0 || addDays((ds[i - 1] as { date: string }).date, 1) === d.date),
          'not every date of the range in order',
        );
      return { ok: z.object({ data: days }).strict() };
    }, 1300);
  });

  it('GET /get-request-status', { timeout: 120_000 }, async () => {
    const many = uidListChoices(w.requests, 100);
    const query = queryOf({
      request_uid: param('request_uid', uidChoices(w.requests)),
      // A list of blanks is the parameter absent (Inputs as iGMS clients send them): refused only when
      // neither parameter names a request, as is a query with neither (one sent empty is absent).
      request_uids: param('request_uids', { valid: fc.oneof(many.valid, as('valid', fc.constantFrom('', ',', ' , '))), invalid: many.invalid }),
    });
    // Sent once and empty (or blanks only for the list), a parameter is absent; sent twice it is a fault naming it.
    const asks = (g: Gen<Pairs>, key: string) => {
      const values = g.value.filter(([k]) => k === key);
      const given = (v: string | undefined) => v !== undefined && v !== '' && (key !== 'request_uids' || listItems(v).length > 0);
      return values.length > 1 || (values.length === 1 && given(values[0]?.[1]));
    };
    const asksAny = (g: Gen<Pairs>) => asks(g, 'request_uid') || asks(g, 'request_uids');
    const askAny = (g: Gen<Pairs>): Gen<Pairs> => (asksAny(g) ? g : { ...g, verdict: 'invalid', param: 'request_uid' });
    const status = requestStatusSchema.strict();
    await fuzz('GET get-request-status', '/api/v1/get-request-status', request(query).map(askAny), (pairs) => {
      const uid = valueOf(pairs, 'request_uid');
      if (uid !== undefined) {
        if (!w.requests.includes(uid)) return { status: 404, code: 11, param: 'request_uid' };
        return { ok: z.object({ data: status.refine((s) => s.request_uid === uid) }).strict() };
      }
      const uids = listItems(valueOf(pairs, 'request_uids') as string);
      if (uids.some((u) => !w.requests.includes(u))) return { status: 404, code: 11, param: 'request_uids' };
      const answer = z.object({ data: z.array(status) }).strict();
      // Repeats may be answered once each or as asked: the contract is silent.
      if (new Set(uids).size !== uids.length) return { either: answer };
      return { ok: answer.refine((a) => a.data.map((s) => s.request_uid).join() === uids.join(), 'not in the order asked') };
    }, 1300);
  });

  it('keeps the process up with bounded memory', async () => {
    const res = await w.api.get(`/api/v1/tasks`, w.tokens.all);
    expect(res.status).toBe(200);
    expect(w.client.total()).toBeGreaterThanOrEqual(5400);
    const after = memoryMb();
    // Heap is read after a full collection: growth is memory still held. RSS only grows to a high-water mark.
    expect(after.heap - w.memoryAtStart.heap).toBeLessThan(64);
    // get-calendar-data answers the iGMS row since issue 11 (15 fields a day, ~1.7x the bytes of
    // a year before): RSS peaks at 200-230 MB over the run here, while the heap held stays flat.
    expect(after.rss - w.memoryAtStart.rss).toBeLessThan(300);
  });
});

/** `date` (YYYY-MM-DD, year 100 to 9998) plus `n` days. */
function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(0);
  t.setUTCFullYear(y, m - 1, d + n);
  return `${String(t.getUTCFullYear()).padStart(4, '0')}-${String(t.getUTCMonth() + 1).padStart(2, '0')}-${String(t.getUTCDate()).padStart(2, '0')}`;
}
