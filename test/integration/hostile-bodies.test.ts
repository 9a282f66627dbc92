import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalJson } from '../../shared/infra/http/canonical.js';
import { taskSchema } from '../../shared/domain/tasks/index.js';
import { as, dateChoices, hostileString, hugeNumbers, isStorable, leaf, madeUpUid, notANumber, notAString, textField, tokenCase, type Choices, type Gen } from '../support/arbitraries.js';
import { arrayOf, objectOf, optional, required } from '../support/hostile-requests.js';
import { badParamAnswer, useHostileWorld, expectationFor, judgeAnswer, pathWithQuery, type Expectation, type RawRequest } from '../support/hostile.js';
import { bodyCase, contentType, expectedOutcome, jsonTypes, notJsonAnswer, refused, sortKeys, uidField, uidOfAtMost, type BodyCase } from '../support/hostile-bodies-plan.js';
import { heapTrend } from '../support/memory.js';
import { futureDates } from '../support/pipeline.js';

/*
 * Fuzz of the two POST methods: bodies with every field absent, null, of the wrong type, out of
 * range, impossible or hostile, keys given twice, unknown keys, garbage and deeply nested JSON,
 * days arrays over the maximum, under every content type and way of presenting a token. Accepted
 * bodies are checked against the contract (warnings, number of requests, the task as stored).
 */

const MAX_DAYS = 50;
const CHUNK_DAYS = 10;
const CONCURRENCY = 4;
const w = useHostileWorld('hostile-bodies', { CALENDAR_MAX_DAYS: String(MAX_DAYS), CALENDAR_CHUNK_DAYS: String(CHUNK_DAYS) });


interface FuzzPlan {
  label: string;
  path: string;
  body: fc.Arbitrary<BodyCase>;
  keys?: fc.Arbitrary<string | undefined>;
  /** What a valid body must get (the caller's token passed). */
  accepted: (body: BodyCase, key: string | undefined) => Expectation;
  /** Sees every 200, after the whole batch of concurrent requests. */
  after?: (body: BodyCase, key: string | undefined, answer: unknown) => void;
  requests: number;
}

/** `requests` generated POSTs, CONCURRENCY at a time over keep-alive sockets, each judged. */
async function fuzz({ label, path, body, keys = fc.constant(undefined), accepted, after, requests }: FuzzPlan) {
  const oneCase = fc.tuple(tokenCase(w.tokens), body, contentType, keys);
  await fc.assert(
    fc.asyncProperty(fc.array(oneCase, { minLength: CONCURRENCY, maxLength: CONCURRENCY }), async (cases) => {
      // One Idempotency-Key at a time: concurrent requests with the same key have no defined order.
      const seen = new Set<string>();
      const plan = cases.map(([tok, b, type, key]) => {
        const k = key === undefined || seen.has(key) || b.verdict === 'maybe' ? undefined : key;
        if (k !== undefined) seen.add(k);
        return { tok, b, type, key: k };
      });
      const answers = await Promise.all(
        plan.map(async ({ tok, b, type, key }) => {
          const headers = { ...tok.headers, 'content-type': type, ...(key !== undefined ? { 'idempotency-key': key } : {}) };
          const odd = !jsonTypes.includes(type);
          const deep = b.param === 'body' && b.text.startsWith('{"deep":');
          const res = await w.client.send(odd ? `${label} odd content type` : deep ? `${label} deep nesting` : label, { method: 'POST', path: pathWithQuery(path, tok.pairs), headers, body: b.text });
          const badKey = key === '' || (key?.length ?? 0) > 255;
          const bodyWant = odd
            ? notJsonAnswer
            : b.verdict === 'valid' && badKey
              ? { ...badParamAnswer, param: 'Idempotency-Key' }
              : expectationFor(b, () => accepted(b, key));
          // The body is read only once the token passed: a refused token is all the answer says.
          const tokenWant: Expectation | undefined = tok.refused;
          judgeAnswer(res, tokenWant ?? bodyWant, { tok, body: b.text.slice(0, 2000), verdict: b.verdict, param: b.param, type, key });
          return res;
        }),
      );
      answers.forEach((res, i) => {
        const p = plan[i];
        if (res.status === 200 && p) after?.(p.b, p.key, res.body);
      });
    }),
    { numRuns: Math.ceil(requests / CONCURRENCY) },
  );
}

describe('hostile bodies: never a 5xx, always the right code', () => {
  it('POST /set-calendar-batch', { timeout: 120_000 }, async () => {
    const future = futureDates(20, 3);
    const manyDays = (n: number, day: (i: number) => object) => Array.from({ length: n }, (_, i) => day(i));
    const dates = dateChoices(false, true);
    const date = { ...dates, valid: fc.oneof(as('valid', fc.constantFrom(...future)), dates.valid), invalid: fc.oneof(refused(dates), as('invalid', notAString)) };
    const price = leaf<unknown>({
      valid: fc.oneof(fc.double({ min: 0, max: 9_999_999_999.99, noNaN: true }), fc.constantFrom(0, -0, 0.005, 99.99, 9_999_999_999.99, 1e-300, 5e-324, '52.5', '0', '007')),
      invalid: fc.oneof(fc.constantFrom(-0.01, -1, 10_000_000_000, ...hugeNumbers.filter((n) => n < 0 || n > 9_999_999_999.99)), notANumber),
    });
    const currency = textField((s) => /^[A-Za-z]{3}$/.test(s), fc.constantFrom('USD', 'usd', 'eUr', 'GBP'));
    const isAvailable = leaf<unknown>({ valid: fc.constantFrom(0, 1, true, false, '0', '1', 'true', 'false'), invalid: fc.constantFrom(2, -1, 'yes', 'on', 0.5, [], {}, '01', ' 1', 1e308) });
    const minStay = leaf<unknown>({
      valid: fc.oneof(fc.integer({ min: 1, max: 10_000 }), fc.constantFrom('3', '1', '10000', '2.0')),
      invalid: fc.oneof(fc.constantFrom(0, -1, 1.5, 10_001, -0, ...hugeNumbers.filter((n) => !Number.isInteger(n) || n < 1 || n > 10_000)), notANumber),
    });
    const notesOk = (s: string) => isStorable(s) && s.length <= 10_000;
    const notes = textField(notesOk, fc.oneof(hostileString.filter(notesOk), fc.constant('x'.repeat(10_000))));
    // A wrong value of a day is a per-day warning, never a refusal: the body stays valid and the
    // contract's answer (which warning) is judged by expectedOutcome.
    const perDay = (c: Choices) =>
      optional({ valid: fc.oneof({ weight: 3, arbitrary: c.valid }, { weight: 1, arbitrary: (c.invalid as fc.Arbitrary<Gen>).map((g): Gen => ({ value: g.value, verdict: 'valid' })) }) });
    const day = objectOf({
      date: required(date),
      price: perDay(price),
      currency: perDay(currency),
      is_available: perDay(isAvailable),
      min_stay: perDay(minStay),
      notes: perDay(notes),
    });
    const notAnObject = fc.oneof(notAString.filter((v) => typeof v !== 'object' || Array.isArray(v)), fc.constant(null));
    const items = arrayOf({ ...day, invalid: fc.oneof(refused(day), as('invalid', notAnObject)) }, 6);
    const days: Choices = {
      valid: fc.oneof(
        { weight: 12, arbitrary: items.valid },
        { weight: 1, arbitrary: as('valid', fc.constant(manyDays(MAX_DAYS, (i) => ({ date: future[i % future.length], notes: `n${i}` })))) },
      ),
      invalid: fc.oneof(
        { weight: 10, arbitrary: refused(items) },
        { weight: 1, arbitrary: as('invalid', fc.integer({ min: MAX_DAYS + 1, max: 3000 }).map((n) => manyDays(n, (i) => ({ date: future[i % 20], min_stay: 1 })))) },
        { weight: 1, arbitrary: as('invalid', fc.oneof(hostileString, fc.constant({}), fc.constant({ date: future[0], min_stay: 2 }), fc.double())) },
      ),
      maybe: items.maybe,
    };
    const body = bodyCase(objectOf({ property_uid: required(uidField(w.properties, uidOfAtMost(100))), days: required(days) }));
    const nonce = Math.random().toString(36).slice(2, 8);
    const keys = fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      { weight: 3, arbitrary: fc.constantFrom(`a-${nonce}`, `b-${nonce}`, `clé-${nonce}`, `${nonce}`.padEnd(255, 'k')) },
      { weight: 1, arbitrary: fc.constantFrom('', 'x'.repeat(256)) },
    );
    // What each Idempotency-Key was first accepted with: the body as parsed, and the answer.
    const firstUse = new Map<string, { canonical: string; answer: unknown }>();
    // The same body for an Idempotency-Key is the same validated body: known keys only, any order,
    // null the same as absent (docs/api.md; the service hashes shared/http/canonical.ts of its schema output).
    const dayKeys = ['date', 'price', 'currency', 'is_available', 'min_stay', 'notes'];
    const canonical = (text: string) => {
      const v = JSON.parse(text) as { property_uid: unknown; days: Array<Record<string, unknown>> };
      const days = v.days.map((d) => Object.fromEntries(dayKeys.filter((k) => k in d).map((k) => [k, d[k]])));
      return canonicalJson({ property_uid: v.property_uid, days });
    };
    const answer = z.object({ data: z.object({ request_uids: z.array(z.string().min(1)), warnings: z.record(z.string(), z.string()) }).strict() }).strict();
    await fuzz({
      label: 'POST set-calendar-batch',
      path: '/api/v1/set-calendar-batch',
      body,
      keys,
      requests: 2300,
      accepted: (b, key) => {
        const sent = JSON.parse(b.text) as { property_uid: string; days: Array<Record<string, unknown>> };
        if (!w.properties.includes(sent.property_uid)) return { status: 404, code: 11, param: 'property_uid' };
        const first = key !== undefined ? firstUse.get(key) : undefined;
        if (first && first.canonical !== canonical(b.text)) return { status: 409, code: 11, param: 'Idempotency-Key' };
        if (first) return { ok: z.unknown().refine((a) => isDeepStrictEqual(a, first.answer), 'not the first answer again') };
        const expected = expectedOutcome(sent.days, sent.property_uid === w.properties[1] ? 'Pacific/Kiritimati' : 'UTC');
        const asExpected = (a: z.infer<typeof answer>) =>
          !expected ||
          (a.data.request_uids.length === Math.ceil(expected.kept / CHUNK_DAYS) && isDeepStrictEqual(sortKeys(a.data.warnings), sortKeys(expected.warnings)));
        return { ok: answer.refine(asExpected, `expected ${JSON.stringify(expected)}`) };
      },
      after: (b, key, res) => {
        if (key !== undefined && !firstUse.has(key)) firstUse.set(key, { canonical: canonical(b.text), answer: res });
      },
    });
  });

  it('POST /update-task', { timeout: 120_000 }, async () => {
    // No valid date past 2200: a task ending after 9999-12-31 is its own rule, tested elsewhere.
    const dates = dateChoices(false);
    const dt = { ...dates, valid: dates.valid.filter((g) => g.value < '2201'), invalid: fc.oneof(refused(dates), as('invalid', notAString)) };
    const time = textField((s) => /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(s), fc.constantFrom('00:00:00', '23:59:59', '12:30:00', '07:05:09'));
    const impossibleTimes = fc.constantFrom('24:00:00', '12:60:00', '12:00:60', '1:00:00', '12:00', '12:00:00.5', ' 12:00:00', '12:00:00Z', '-1:00:00');
    const tm = { ...time, invalid: fc.oneof(refused(time), as('invalid', impossibleTimes)) };
    const hr = leaf<unknown>({
      valid: fc.oneof(fc.constantFrom(0.25, 1, 336, 1 / 3600, 2.5), fc.double({ min: 0.001, max: 336, noNaN: true })),
      invalid: fc.oneof(fc.constantFrom(0, -0, -1, 336.0001, 337, 1e-300, 5e-324, 0.4 / 3600, ...hugeNumbers.filter((n) => n <= 0 || n > 336 || n < 1e-9)), notANumber),
    });
    const text = textField((s) => isStorable(s) && s.length <= 10_000);
    const uidText = textField(uidOfAtMost(100));
    // Mostly an active member or "" (unassign); else inactive, made up, or any text (all 404).
    const cleaner = {
      ...textField((s) => s === '' || uidOfAtMost(100)(s)),
      valid: fc.oneof(
        { weight: 8, arbitrary: as('valid', fc.constantFrom(...w.cleaners, '')) },
        { weight: 1, arbitrary: as('valid', fc.constantFrom(w.inactiveCleaner)) },
        { weight: 1, arbitrary: as('valid', madeUpUid) },
        { weight: 1, arbitrary: uidText.valid },
      ),
    };
    const body = bodyCase(
      objectOf({
        task_uid: required(uidField(w.tasks, uidOfAtMost(100))),
        property_uid: optional(uidField(w.properties, uidOfAtMost(100))),
        dt: optional(dt),
        tm: optional(tm),
        hr: optional(hr),
        cleaner_uid: optional(cleaner),
        description: optional(text),
      }),
    );
    const meta = z.object({ page: z.literal(1), has_next_page: z.literal(false) }).strict();
    await fuzz({
      label: 'POST update-task',
      path: '/api/v1/update-task',
      body,
      requests: 2300,
      accepted: (b) => {
        const v = JSON.parse(b.text) as Record<string, any>;
        if (!w.tasks.includes(v.task_uid)) return { status: 404, code: 11, param: 'task_uid' };
        if (v.property_uid != null && !w.properties.includes(v.property_uid)) return { status: 404, code: 11, param: 'property_uid' };
        if (v.cleaner_uid != null && v.cleaner_uid !== '' && !w.cleaners.includes(v.cleaner_uid)) return { status: 404, code: 11, param: 'cleaner_uid' };
        // The answer is the task as stored after this update: every field given shows in it.
        const showsUpdate = (t: z.infer<typeof taskSchema>) => {
          const seconds = (Date.parse(`${t.local_end_dttm.replace(' ', 'T')}Z`) - Date.parse(`${t.local_start_dttm.replace(' ', 'T')}Z`)) / 1000;
          const cleanerShown =
            v.cleaner_uid === ''
              ? t.team_member_uid === null && t.task_status === 'unassigned'
              : t.team_member_uid === v.cleaner_uid && t.task_status === 'assigned';
          return (
            t.task_uid === v.task_uid &&
            (v.description == null || t.description === (v.description === '' ? null : v.description)) &&
            (v.cleaner_uid == null || cleanerShown) &&
            (v.property_uid == null || t.property_uid === v.property_uid) &&
            (v.dt == null || t.local_start_dttm.slice(0, 10) === v.dt) &&
            (v.tm == null || t.local_start_dttm.slice(11) === v.tm) &&
            (v.hr == null || seconds === Math.round(v.hr * 3600))
          );
        };
        return { ok: z.object({ data: z.tuple([taskSchema.strict().refine(showsUpdate, 'the answer does not show the update')]), meta }).strict() };
      },
    });
  });

  it('keeps the process up with bounded memory', { timeout: 120_000 }, async () => {
    const res = await w.api.post('/api/v1/update-task', { task_uid: w.tasks[0], description: 'still here' }, w.tokens.all);
    expect(res.status).toBe(200);
    expect(w.client.total()).toBeGreaterThanOrEqual(4600);
    // Rounds of the same mix of accepted and refused bodies, each value new: a leak of anything kept
    // per request raises the heap round after round (see heapTrend for why not RSS or one reading).
    const statuses = new Map<number, number>();
    const trend = await heapTrend(MEMORY_ROUNDS, async (round) => {
      for (let k = 0; k < MEMORY_ROUND_REQUESTS; k += CONCURRENCY) {
        const answers = await Promise.all(Array.from({ length: CONCURRENCY }, (_, j) => w.client.send('memory', memoryRequest(`${round}-${k + j}`, k + j))));
        for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      }
    });
    console.log(`hostile-bodies memory rounds: heap ${trend.readings.map((r) => r.toFixed(1)).join(', ')} MB; slope ${trend.slope.toFixed(2)} MB/round; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect([...statuses.keys()].filter((st) => st >= 500)).toEqual([]);
    expect(statuses.get(200)).toBe((MEMORY_ROUNDS * MEMORY_ROUND_REQUESTS) / 4);
    expect(trend.slope).toBeLessThan(MEMORY_SLOPE_MB);
    expect(trend.growth).toBeLessThan(MEMORY_SLOPE_MB * (MEMORY_ROUNDS - 1));
  });
});

const MEMORY_ROUNDS = 5;
const MEMORY_ROUND_REQUESTS = 200;
/** Heap growth per round that counts as a leak: 5 KB kept per request (clean code: 0.04-0.12 MB, keeping every body: 13.6 MB). */
const MEMORY_SLOPE_MB = 1;

/** One request of the memory rounds: 8 kinds in turn, 2 of them accepted; every value unique. */
function memoryRequest(id: string, k: number): RawRequest {
  const all = [['access_token', w.tokens.all]] as const;
  const post = (path: string, body: string, pairs: ReadonlyArray<readonly [string, string]> = all, headers: Record<string, string> = {}) =>
    ({ method: 'POST', path: pathWithQuery(path, pairs), headers, body });
  const days = (n: number) => futureDates(n, 3).map((date, i) => ({ date, min_stay: 1 + (i % 5), notes: `${id} ${i}` }));
  switch (k % 8) {
    case 0:
      return post('/api/v1/set-calendar-batch', JSON.stringify({ property_uid: w.properties[k % 2], days: days(10) }), all, { 'idempotency-key': `mem-${id}` });
    case 1:
      return post('/api/v1/update-task', JSON.stringify({ task_uid: w.tasks[k % w.tasks.length], description: `memory ${id}` }));
    case 2:
      return post('/api/v1/set-calendar-batch', JSON.stringify({ property_uid: w.properties[0], days: days(MAX_DAYS + 1) }));
    case 3:
      return post('/api/v1/set-calendar-batch', JSON.stringify({ property_uid: `pr_${id}`, days: days(2) }));
    case 4:
      return post('/api/v1/set-calendar-batch', `{"days":${'['.repeat(10_000)}${']'.repeat(10_000)},"n":"${id}"}`);
    case 5:
      return post('/api/v1/update-task', JSON.stringify({ task_uid: w.tasks[0], cleaner_uid: 42, description: id }));
    case 6:
      return post('/api/v1/update-task', `{"task_uid":"${id}"`);
    default:
      return post('/api/v1/set-calendar-batch', JSON.stringify({ property_uid: w.properties[0], days: days(3) }), [['access_token', `tok_${id}`]]);
  }
}

