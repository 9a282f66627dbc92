import type { ReadyList } from '../../shared/infra/queue/calendar-ready-list.js';
import { describe, expect, it } from 'vitest';
import {
  CalendarService,
  setCalendarBatchBodySchema,
  WARNING_PAST,
  type CalendarRepository,
  type RequestDay,
  type Warnings,
} from '../../shared/domain/calendar/index.js';
import { PropertiesService, type PropertyRepository } from '../../shared/domain/properties/index.js';
import { AppError } from '../../shared/infra/errors.js';
import { RequestPipeline, type RequestsRepository } from '../../shared/platform/requests/index.js';
import { localDate } from '../../shared/infra/time.js';
import { fakeInfra, strictFake, type FakeInfraOptions } from '../support/services.js';

/*
 * The one submission path (CalendarService.submit) over fake repositories: what it stores, in
 * which chunks with which warnings, and what it queues after the store. No database, no queue.
 */

interface Inserted {
  companyUid: string;
  propertyUid: string;
  chunks: RequestDay[][];
  warnings: Warnings[];
  appUid?: string;
}

/** A ready list whose push is `push`; nothing takes from it here. */
const readyFake = (push: (uids: readonly string[]) => Promise<void>): ReadyList => ({ push, take: async () => undefined, putBack: async () => {}, close: () => {} });

function world(opts: FakeInfraOptions & { timeZone?: string } = {}) {
  // The job path unless a test says otherwise: the calendar pump (CALENDAR_PUMP on) queues no job.
  const { infra, enqueued } = fakeInfra({ env: { CALENDAR_CHUNK_DAYS: '2', CALENDAR_PUMP: 'off', ...opts.env }, ...(opts.enqueue ? { enqueue: opts.enqueue } : {}), ...(opts.ready ? { ready: opts.ready } : {}) });
  const inserted: Inserted[] = [];
  const propertyRepo = strictFake<PropertyRepository>('propertyRepository', {
    findProperty: async (_db, companyUid, propertyUid) => (companyUid === 'co_1' && propertyUid === 'pr_1' ? { uid: 'pr_1', timeZone: opts.timeZone ?? 'UTC' } : undefined),
  });
  let n = 0;
  const requestsRepo = strictFake<RequestsRepository>('requestsRepository', {
    insertRequests: async (_tx, companyUid, propertyUid, chunks, warnings, { appUid } = {}) => {
      inserted.push({ companyUid, propertyUid, chunks: chunks.map((c) => [...c] as RequestDay[]), warnings: [...warnings], ...(appUid ? { appUid } : {}) });
      return chunks.map(() => `cr_${++n}`);
    },
  });
  const calendarRepo = strictFake<CalendarRepository>('calendarRepository', { readCalendarView: async () => [] });
  const properties = new PropertiesService(infra, propertyRepo);
  const calendar = new CalendarService(infra, properties, calendarRepo, new RequestPipeline(infra, requestsRepo));
  return { calendar, inserted, enqueued };
}

const dayAfter = (date: string, n: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const body = (days: Array<Record<string, unknown>>) => setCalendarBatchBodySchema(1000).parse({ property_uid: 'pr_1', days });
const by = { tokenUid: 'tk_1', appUid: 'ap_1' };

describe('CalendarService.submit (fake repositories)', () => {
  it('stores the kept days in chunks of CALENDAR_CHUNK_DAYS with their share of the warnings, then queues every uid', async () => {
    const w = world();
    const today = localDate('UTC');
    const yesterday = dayAfter(today, -1);
    const dates = [0, 1, 2].map((i) => dayAfter(today, i + 1));
    const answer = await w.calendar.submitBatch('co_1', body([{ date: yesterday, price: 1, currency: 'EUR' }, ...dates.map((date) => ({ date, min_stay: 2 }))]), by);

    expect(answer.data.request_uids).toEqual(['cr_1', 'cr_2']);
    expect(answer.data.warnings).toEqual({ [yesterday]: WARNING_PAST });
    expect(w.inserted).toHaveLength(1);
    expect(w.inserted[0]!.chunks.map((c) => c.map((d) => d.date))).toEqual([[dates[0], dates[1]], [dates[2]]]);
    // The past date's warning travels with the chunk its date falls in (the first).
    expect(w.inserted[0]!.warnings).toEqual([{ [yesterday]: WARNING_PAST }, {}]);
    expect(w.inserted[0]).toMatchObject({ companyUid: 'co_1', propertyUid: 'pr_1', appUid: 'ap_1' });
    expect(w.enqueued).toEqual([['cr_1', 'cr_2']]);
  });

  it('queues no job with the calendar pump on: the insert wakes the pumps at its commit', async () => {
    const w = world({ env: { CALENDAR_PUMP: 'on' } });
    const answer = await w.calendar.submitBatch('co_1', body([1, 2, 3].map((i) => ({ date: dayAfter(localDate('UTC'), i), min_stay: 2 }))), by);
    expect(answer.data.request_uids).toEqual(['cr_1', 'cr_2']);
    expect(w.inserted).toHaveLength(1);
    expect(w.enqueued).toEqual([]);
  });

  it('names the batch on the ready list after its commit and queues no job, with the queue on Redis (CALENDAR_PUMP auto)', async () => {
    const pushed: string[][] = [];
    const w = world({ env: { CALENDAR_PUMP: 'auto' }, ready: readyFake(async (uids) => void pushed.push([...uids])) });
    const answer = await w.calendar.submitBatch('co_1', body([1, 2, 3].map((i) => ({ date: dayAfter(localDate('UTC'), i), min_stay: 2 }))), by);
    expect(answer.data.request_uids).toEqual(['cr_1', 'cr_2']);
    expect(pushed).toEqual([['cr_1', 'cr_2']]);
    expect(w.enqueued).toEqual([]);
  });

  it('answers the stored batch when the ready list cannot take it (the pumps look for it in Postgres)', async () => {
    const w = world({ env: { CALENDAR_PUMP: 'auto' }, ready: readyFake(() => Promise.reject(new Error('redis down'))) });
    const answer = await w.calendar.submitBatch('co_1', body([{ date: dayAfter(localDate('UTC'), 3), min_stay: 1 }]), by);
    expect(answer.data.request_uids).toEqual(['cr_1']);
    expect(w.enqueued).toEqual([]);
  });

  it('queues a job per batch with CALENDAR_PUMP auto where the queue has no ready list (the Postgres backend)', async () => {
    const w = world({ env: { CALENDAR_PUMP: 'auto' } });
    await w.calendar.submitBatch('co_1', body([{ date: dayAfter(localDate('UTC'), 3), min_stay: 1 }]), by);
    expect(w.enqueued).toEqual([['cr_1']]);
  });

  it('judges "past" in the property zone', async () => {
    // Kiritimati is UTC+14: its today is UTC's tomorrow (or later) for most of the day.
    const w = world({ timeZone: 'Pacific/Kiritimati' });
    const zoneToday = localDate('Pacific/Kiritimati');
    const answer = await w.calendar.submitBatch('co_1', body([{ date: dayAfter(zoneToday, -1), min_stay: 1 }, { date: zoneToday, min_stay: 1 }]), by);
    expect(Object.keys(answer.data.warnings)).toEqual([dayAfter(zoneToday, -1)]);
    expect(w.inserted[0]!.chunks.flat().map((d) => d.date)).toEqual([zoneToday]);
  });

  it('answers the stored requests when the queue cannot be reached (the sweep queues them later)', async () => {
    const w = world({ enqueue: () => Promise.reject(new Error('queue down')) });
    const answer = await w.calendar.submitBatch('co_1', body([{ date: dayAfter(localDate('UTC'), 3), min_stay: 1 }]), by);
    expect(answer.data.request_uids).toEqual(['cr_1']);
    expect(w.enqueued).toEqual([['cr_1']]);
  });

  it('refuses an unknown property with 404 code 11 and stores and queues nothing', async () => {
    const w = world();
    const err = await w.calendar.submitBatch('co_2', body([{ date: dayAfter(localDate('UTC'), 3), min_stay: 1 }]), by).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 11, status: 404, param: 'property_uid' });
    expect(w.inserted).toEqual([]);
    expect(w.enqueued).toEqual([]);
  });

  it('sends the v2 range through the same path: one is_available day per date, chunked and queued', async () => {
    const w = world();
    const start = dayAfter(localDate('UTC'), 5);
    const answer = await w.calendar.setAvailability('co_1', { property_uid: 'pr_1', start_date: start, end_date: dayAfter(start, 2), is_available: false }, by);
    expect(answer.request_uids).toEqual(['cr_1', 'cr_2']);
    expect(w.inserted[0]!.chunks.flat()).toEqual([0, 1, 2].map((i) => ({ date: dayAfter(start, i), price: null, currency: null, is_available: false, min_stay: null, notes: null })));
    expect(w.enqueued).toEqual([['cr_1', 'cr_2']]);
  });
});
