import type { Infra } from '../../infra/infra.js';
import type { TokenCheck } from '../auth/index.js';
import { notFound, shown } from '../../infra/errors.js';
import { countAcceptedBatch } from './calendar.metrics.js';
import { idempotent, type IdempotencyKey } from '../../platform/idempotency/index.js';
import { unknownProperty, type PropertiesService } from '../properties/index.js';
import { BaseService } from '../service.js';
import { type AvailabilityDay, type SetAvailabilityAnswer, type SetAvailabilityBody } from './availability.schema.js';
import { WARNING_PAST, type RequestDay } from './calendar.days.js';
import { type ApplyOutcome, type CalendarRepository, type CalendarRequestRow, type StaleRequest } from './calendar.repository.js';
import { rangeDays, type SetCalendarDataAnswer, type SetCalendarDataBody } from './calendar-range.schema.js';
import type { Db, Executor } from '../../infra/db/client.js';
import { enqueueAfterCommit } from '../../infra/queue/producer.js';
import type { JobsOf } from '../../infra/queue/registry.js';
import { applyDayRules, assignWarnings, chunk, type Warnings } from './calendar.rules.js';
import { datesOf, localDate } from '../../infra/time.js';
import { toStatusView } from './calendar.status.js';
import { calendarDayToWire } from './calendar.view.js';
import { previewDays, withPreview, type Submitted } from './calendar.preview.js';
import {
  NOT_BLOCKED,
  type CalendarDayView,
  type CalendarPreview,
  type RequestKind,
  type RequestStatusView,
  type SetCalendarBatchBody,
  type SetCalendarBatchResponse,
} from './calendar.schema.js';
import { RequestStatusWaits } from './calendar-wait.js';
import type { RequestWaitsOptions } from '../../platform/long-poll/index.js';

/** Who submits: the app behind the token is told (webhook) when each request finishes. */
export interface Submitter {
  tokenUid: string;
  appUid?: string;
  /** The token came from the cache: the insert confirms it is live (see auth/token-check.ts). */
  check?: TokenCheck;
  /** A console user (not an app): stored on the request so provenance names the person. */
  userUid?: string;
}

/** Calendar days for the one submission path (CalendarService.submit). */
export interface Submission<A> {
  companyUid: string;
  propertyUid: string;
  /** The days as the calendar's rules judged them: the kept ones and each skipped day's warning. */
  days: JudgedDays;
  by: Submitter;
  /** What the method answers, from the uids (stored with the key, replayed as it was). */
  answer: (uids: string[]) => A;
  key?: IdempotencyKey;
  /** Stop before storing: nothing written or queued, the key neither used nor recorded; the answer comes with a preview. */
  dryRun?: boolean;
  /**
   * Runs first in the storing transaction, told how many requests the days make: a proposal uid
   * to store them `paused` under it (nothing queued), or undefined to queue them. A proposal
   * decides here, under its lock, whether the property allows calendar control.
   */
  holdUnder?: (tx: Executor, requests: number) => Promise<string | undefined>;
}

/** What a store of the submission path wrote: the answer, every request it wrote, the ones to queue now. */
export interface StoredRequests<A> {
  answer: A;
  uids: string[];
  queue: string[];
}

/** The job that applies a request of each kind (one queue, one pipeline). */
export const jobOfKind = { calendar: 'apply-calendar-request', listing_status: 'apply-listing-status' } as const satisfies Record<RequestKind, JobsOf<'calendar'>>;

/** Days judged and ready to store: the kept days (sorted by date) and one warning per skipped date. */
export interface JudgedDays {
  kept: RequestDay[];
  warnings: Warnings;
}

/** The iGMS v2 wording of an unknown property. */
export const unknownPropertyMessage = (uid: string) => `Not found property with UID ${uid}. Please re-sync the list of user's properties`;

/**
 * Calendar changes and reads: every way of changing days (batch, range, availability) ends in
 * `submit`, the one submission path; statuses and long-polls read the requests back.
 */
export class CalendarService extends BaseService {
  /** Long-poll waiters of get-request-status; listens (one connection) only once someone waits. */
  readonly waits: RequestStatusWaits;

  constructor(
    infra: Infra,
    private readonly properties: PropertiesService,
    private readonly repo: CalendarRepository,
    waitOptions: RequestWaitsOptions = {},
  ) {
    super(infra);
    this.waits = new RequestStatusWaits(infra, repo, waitOptions);
  }

  /** POST /set-calendar-batch: the days as read and merged by the body's schema, judged, submitted (or previewed: `dryRun`). */
  async submitBatch(companyUid: string, body: SetCalendarBatchBody, by: Submitter, idempotencyKey?: string, dryRun = false): Promise<SetCalendarBatchResponse> {
    const property = await this.properties.require(companyUid, body.property_uid);
    const judged = applyDayRules(body.days, localDate(property.timeZone));
    const key = idempotencyKey === undefined ? undefined : { tokenUid: by.tokenUid, companyUid, key: idempotencyKey, body };
    const answer = (uids: string[]) => ({ data: { request_uids: uids, warnings: judged.warnings } });
    return withPreview(await this.submit({ companyUid, propertyUid: property.uid, days: judged, by, answer, key, dryRun }));
  }

  /**
   * POST /api/v2/set-property-calendar-availability: every date of the range becomes a day that
   * changes only `is_available`, through the same submission as batches (so a range and batches
   * over the same dates end as the later submission says, field by field). Past dates are skipped
   * with the batch's warning. The answer previews each date as it will read once applied.
   */
  async setAvailability(companyUid: string, body: SetAvailabilityBody, by: Submitter, dryRun = false): Promise<SetAvailabilityAnswer> {
    const property = await this.properties.require(companyUid, body.property_uid, unknownPropertyMessage);
    const today = localDate(property.timeZone);
    const judged: JudgedDays = { kept: [], warnings: {} };
    for (const date of datesOf(body.start_date, body.end_date)) {
      if (date < today) judged.warnings[date] = WARNING_PAST;
      else judged.kept.push({ date, price: null, currency: null, is_available: body.is_available, min_stay: null, notes: null });
    }
    // The current calendar (bookings, past values) is read while the requests are stored.
    const [submitted, current] = await Promise.all([
      this.submit({ companyUid, propertyUid: property.uid, days: judged, by, answer: (u) => u, dryRun }),
      this.repo.readCalendarView(this.db, companyUid, property.uid, body.start_date, body.end_date),
    ]);
    // The same preview a dry run answers: the availability list is that preview in the v2 words.
    const preview = submitted.preview ?? previewDays(current, judged.kept);
    const availability = current.map((d): AvailabilityDay => {
      const p = preview[d.date];
      if (!p) return { date: d.date, is_available: d.is_available, reason: WARNING_PAST };
      const reason = p.unavailable_reason === NOT_BLOCKED ? null : p.unavailable_reason;
      return { date: d.date, is_available: p.is_available, reason };
    });
    const answer: SetAvailabilityAnswer = { success: true, availability, errors: [], request_uids: submitted.answer };
    // A dry run adds the envelope every dry run answers, beside the v2 fields a v2 client reads.
    return dryRun ? { ...answer, data: { request_uids: [], warnings: judged.warnings, preview } } : answer;
  }

  /** POST /set-calendar-data: every date of the range a day with the body's fields, judged and submitted as a batch. */
  async submitRange(companyUid: string, body: SetCalendarDataBody, by: Submitter, idempotencyKey?: string, dryRun = false): Promise<SetCalendarDataAnswer> {
    const property = await this.properties.require(companyUid, body.property_uid);
    const judged = applyDayRules(rangeDays(body), localDate(property.timeZone));
    const key = idempotencyKey === undefined ? undefined : { tokenUid: by.tokenUid, companyUid, key: idempotencyKey, body };
    const answer = (uids: string[]) => ({ data: { request_uid: uids[0] ?? null, request_uids: uids, warnings: judged.warnings } });
    return withPreview(await this.submit({ companyUid, propertyUid: property.uid, days: judged, by, answer, key, dryRun }));
  }

  /**
   * Calendar days through the one submission path: split into chunks of CALENDAR_CHUNK_DAYS, each
   * a request with its share of the warnings, all stored in one statement and given submission
   * sequence numbers. Days a proposal holds (`holdUnder`) are stored `paused`, not queued.
   *
   * `dryRun`: the days were judged by the caller exactly as for real; here the path stops before
   * storing: nothing is written or queued, the key is neither used nor recorded, and the answer
   * (built for no requests) comes with the preview of the kept days (`withPreview`).
   */
  async submit<A>(s: Submission<A>): Promise<Submitted<A>> {
    const { companyUid, propertyUid, by, answer } = s;
    const { kept, warnings } = s.days;
    if (s.dryRun) return { answer: answer([]), uids: [], preview: await this.preview(companyUid, propertyUid, kept) };
    const chunks = chunk(kept, this.config.calendar.chunkDays);
    const chunkWarnings = assignWarnings(chunks, warnings);
    const outcome = await this.submitStored(async (tx) => {
      const proposalUid = await s.holdUnder?.(tx, chunks.length);
      const paused = proposalUid !== undefined;
      const opts = { ...(paused ? { status: 'paused' as const, proposalUid } : {}), liveToken: by.check, userUid: by.userUid };
      const uids = await this.repo.insertRequests(tx, companyUid, propertyUid, chunks, chunkWarnings, by.appUid, opts);
      return { answer: answer(uids), uids, queue: paused ? [] : uids };
    }, s.key);
    if (outcome.uids.length > 0) countAcceptedBatch(this.infra.metrics, kept.length, warnings);
    return outcome;
  }

  /**
   * The one submission path of every request, whatever its kind (calendar days, listing statuses,
   * a proposal stored or approved). `store` writes in one transaction (with the Idempotency-Key,
   * if any) and says which of its requests to queue; only after the commit are they queued. A
   * queue that cannot be reached does not fail the answer: the requests are durable and the
   * re-enqueue sweep adds them later. A replayed key answers as before and queues nothing.
   */
  async submitStored<A>(store: (tx: Executor) => Promise<StoredRequests<A>>, key?: IdempotencyKey, kind: RequestKind = 'calendar'): Promise<{ answer: A; uids: string[] }> {
    let stored: StoredRequests<A> | undefined;
    const write = async (tx: Executor) => {
      stored = await store(tx);
      return stored.answer;
    };
    // Without a key `idempotent` runs the write on the pool: a store of several statements gets its own transaction.
    const outcome = await idempotent(this.db, this.config.idempotency.ttlHours, key, key ? write : (db) => (db as Db).transaction(write));
    if (outcome.replayed || !stored) return { answer: outcome.answer, uids: [] };
    const queue = stored.queue;
    // No enqueued_at write here: it would cost a second commit per batch. The sweep asks the queue
    // itself whether a job exists before adding it again.
    await enqueueAfterCommit(this.logger, 'requests', queue, (uids) => this.infra.jobs.calendar.enqueue(uids, jobOfKind[kind]));
    return { answer: outcome.answer, uids: stored.uids };
  }

  /**
   * Statuses read from Postgres only (they survive the loss of the queue), in the order asked; the
   * queue is asked only whether it is paused. `param` names the parameter an unknown uid came from.
   */
  async statuses(companyUid: string, uids: readonly string[], param: string): Promise<RequestStatusView[]> {
    const rows = await this.repo.findRequests(this.db, companyUid, uids);
    const byUid = new Map(rows.map((r) => [r.uid, r]));
    const missing = uids.find((u) => !byUid.has(u));
    if (missing !== undefined) throw notFound(param, `Unknown request_uid ${shown(missing)}`);
    const paused = await this.queuePaused(rows);
    return uids.map((u) => toStatusView(byUid.get(u) as CalendarRequestRow, paused));
  }

  /** get-request-status with `wait` (see RequestStatusWaits). */
  async waitForStatuses(companyUid: string, uids: readonly string[], param: string, waitSeconds: number, signal?: AbortSignal): Promise<RequestStatusView[]> {
    return this.waits.wait(companyUid, uids, waitSeconds, signal, () => this.statuses(companyUid, uids, param), (rows) => this.queuePaused(rows));
  }

  /** Whether a queued request reads `paused`: asked of the queue only when one is queued. */
  private async queuePaused(rows: readonly Pick<CalendarRequestRow, 'status'>[]): Promise<boolean> {
    return rows.some((r) => r.status === 'queued') ? this.infra.jobs.calendar.isPaused().catch(() => false) : false;
  }

  /** Each kept day as it would read once applied, over the calendar as stored now (only their dates are read). */
  async preview(companyUid: string, propertyUid: string, kept: readonly RequestDay[]): Promise<CalendarPreview> {
    if (kept.length === 0) return {};
    const dates = kept.map((d) => d.date);
    const current = await this.repo.readCalendarView(this.db, companyUid, propertyUid, dates[0]!, dates[dates.length - 1]!, dates);
    return previewDays(current, kept);
  }

  /** The iGMS calendar row and ours, one per date of the range, as the property reads now. */
  async read(companyUid: string, { property_uid, from_date, to_date }: { property_uid: string; from_date: string; to_date: string }): Promise<CalendarDayView[]> {
    const rows = await this.repo.readCalendarView(this.db, companyUid, property_uid, from_date, to_date);
    // The range always holds a date, so no row means the property is not the company's.
    if (rows.length === 0) throw unknownProperty(property_uid);
    return rows.map((r) => calendarDayToWire(property_uid, r));
  }

  /**
   * Worker: marks the request processing (counting the attempt), then applies it in one statement
   * (see calendar.repository.ts applyRequest). A request already final is left alone, so a retry
   * or a duplicate job changes nothing.
   */
  async apply(requestUid: string): Promise<ApplyOutcome> {
    const marked = await this.repo.markProcessing(this.db, requestUid);
    if (!marked) return { status: 'missing', daysApplied: 0, pastWarnings: {} };
    if (marked.status === 'completed' || marked.status === 'error') return { status: 'already-final', finalStatus: marked.status, daysApplied: 0, pastWarnings: {} };
    return this.repo.applyRequest(this.db, requestUid, WARNING_PAST, this.config.changes.enabled);
  }

  /** Worker: the request failed for good; answers the webhook event written with it, if any. */
  fail(requestUid: string, message: string): Promise<string | undefined> {
    return this.repo.markError(this.db, requestUid, message);
  }

  /** The re-enqueue sweep's claim: requests whose job may be lost (see claimStaleRequests). */
  claimStale(limit: number): Promise<StaleRequest[]> {
    return this.repo.claimStaleRequests(this.db, this.config.queue.reenqueueAfterMs, limit);
  }

  close(): Promise<void> {
    return this.waits.close();
  }
}
