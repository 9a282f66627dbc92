import type { Infra } from '../../infra/infra.js';
import { liveTokenGuard, type TokenCheck } from '../auth/index.js';
import { countAcceptedBatch } from './calendar.metrics.js';
import type { IdempotencyKey } from '../../platform/idempotency/index.js';
import { REQUESTS_QUEUED_CHANNEL, type RequestPipeline } from '../../platform/requests/index.js';
import { unknownProperty, type PropertiesService } from '../properties/index.js';
import { BaseService } from '../service.js';
import { type AvailabilityDay, type SetAvailabilityAnswer, type SetAvailabilityBody } from './availability.schema.js';
import { WARNING_PAST, type RequestDay } from './calendar.days.js';
import type { ApplyOutcome, CalendarRepository, NextApplied } from './calendar.repository.js';
import { rangeDays, type SetCalendarDataAnswer, type SetCalendarDataBody } from './calendar-range.schema.js';
import type { Executor } from '../../infra/db/client.js';
import { applyDayRules, assignWarnings, chunk, type Warnings } from './calendar.rules.js';
import { datesOf, localDate } from '../../infra/time.js';
import { pumpModeOf } from '../../infra/queue/calendar-ready-list.js';
import { calendarDayToWire } from './calendar.view.js';
import { previewDays, withPreview, type Submitted } from './calendar.preview.js';
import {
  NOT_BLOCKED,
  type CalendarDayView,
  type CalendarPreview,
  type SetCalendarBatchBody,
  type SetCalendarBatchResponse,
} from './calendar.schema.js';

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

/** Days judged and ready to store: the kept days (sorted by date) and one warning per skipped date. */
export interface JudgedDays {
  kept: RequestDay[];
  warnings: Warnings;
}

/** The iGMS v2 wording of an unknown property. */
export const unknownPropertyMessage = (uid: string) => `Not found property with UID ${uid}. Please re-sync the list of user's properties`;

/**
 * Calendar changes and reads: every way of changing days (batch, range, availability) ends in
 * `submit`, the one submission path of days, through the request pipeline (shared/platform/requests),
 * which also reads statuses back (get-request-status and its long-poll).
 */
export class CalendarService extends BaseService {
  constructor(
    infra: Infra,
    private readonly properties: PropertiesService,
    private readonly repo: CalendarRepository,
    /** The request pipeline its days travel through (stored, queued, claimed, statuses read). */
    private readonly requests: RequestPipeline,
  ) {
    super(infra);
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
    const outcome = await this.requests.submit(
      async (tx, alone, claim) => {
        const proposalUid = await s.holdUnder?.(tx, chunks.length);
        const paused = proposalUid !== undefined;
        const guard = by.check ? liveTokenGuard(by.check) : undefined;
        // The NOTIFY pump's wake-up, sent by the insert at its commit (the API queues no job then).
        const wake = !paused && pumpModeOf(this.infra) === 'notify' ? { wake: REQUESTS_QUEUED_CHANNEL } : {};
        const opts = { ...(paused ? { status: 'paused' as const, proposalUid } : {}), appUid: by.appUid, guard, userUid: by.userUid, ...wake, ...(alone ? { alone: this.db } : {}), ...(claim ? { keyed: { claim, answer } } : {}) };
        const uids = await this.requests.insert(tx, companyUid, propertyUid, chunks, chunkWarnings, opts);
        return { answer: answer(uids), uids, queue: paused ? [] : uids, oneBatch: true };
      },
      // A proposal's hold is a statement of its own: such a store gets a transaction. So does a keyed
      // batch that stores no request (every day skipped): its key is still recorded with its answer.
      { key: s.key, oneStatement: s.holdUnder === undefined && (chunks.length > 0 || !s.key) },
    );
    if (outcome.uids.length > 0) countAcceptedBatch(this.infra.metrics, kept.length, warnings);
    return outcome;
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
   * The calendar pump (worker/calendar-pump.ts): claims and applies the oldest batch no one has
   * started nor handed to the queue, in one statement (calendar.repository.ts applyNextSql).
   * Answers what it claimed (and how many other batches wait, up to `waitingCap`), or undefined
   * when there was nothing to claim. Throws what the statement threw (lock_not_available: a lock
   * held past CLAIM_LOCK_WAIT; nothing was claimed).
   */
  async applyNext(waitingCap: number, minAgeMs = 0): Promise<NextApplied | undefined> {
    const next = await this.repo.applyNext(this.infra.database, WARNING_PAST, waitingCap, this.config.changes.enabled, minAgeMs);
    return next.applied.size + next.unapplied.length > 0 ? next : undefined;
  }

  /**
   * The pump's hand-over to the queue: `uids` (a batch it claimed and could not complete), or else
   * the oldest batch not started (after a statement that failed: held up on a lock past
   * CLAIM_LOCK_WAIT, or an error), marked handed over first (no pump takes it again) and queued as
   * one job, whose claim waits for locks and whose retries end it. Answers the uids handed over.
   */
  async handOver(uids?: readonly string[]): Promise<string[]> {
    const handed = uids ? await this.requests.markHandedOver(uids) : await this.repo.handOverNext(this.infra.database);
    if (handed.length > 0) await this.infra.jobs.calendar.enqueue(handed, 'apply-calendar-request', { oneBatch: true });
    return handed;
  }

  /**
   * Worker: applies the request in one statement that also counts the attempt and stamps its
   * start (see calendar.repository.ts applyRequestSql, compiled once: RequestPipeline.claimAndApply;
   * held up on a lock, it is marked processing first and then applied).
   * `siblings`: the other requests of its batch, queued with it in one job, claimed and applied
   * in the same statement (their outcomes in `siblings` of the answer). A request already final is
   * left alone, so a retry or a duplicate job changes nothing. `heldUp: 'throw'` (the calendar
   * pump): a claim held up past CLAIM_LOCK_WAIT throws lock_not_available instead of waiting.
   */
  async apply(requestUid: string, siblings: readonly string[] = [], opts: { heldUp?: 'wait' | 'throw' } = {}): Promise<ApplyOutcome> {
    const uids = [requestUid, ...siblings];
    let claimed;
    try {
      const feed = this.config.changes.enabled;
      const apply = opts.heldUp === 'throw' ? undefined : this.repo.applyRequestQuery(uids, WARNING_PAST, feed);
      claimed = await this.requests.claimAndApply(uids, this.repo.applyRequestQuery(uids, WARNING_PAST, feed, true), apply);
    } catch (err) {
      // Two of them writing one date (never from one batch, whose dates are distinct): each alone.
      if (siblings.length === 0 || (err as { code?: string }).code !== '21000') throw err;
      const each = [];
      for (const uid of uids) each.push(await this.apply(uid, [], opts));
      return { ...(each[0] as ApplyOutcome), siblings: each.slice(1).filter((o) => o.status === 'completed') };
    }
    const { begun, rows } = claimed;
    const outcomes = this.repo.appliedOutcomes(rows);
    const done = outcomes.get(requestUid);
    const others = siblings.flatMap((u) => outcomes.get(u) ?? []);
    if (done) return others.length > 0 ? { ...done, siblings: others } : done;
    if (begun.status === 'missing') return { status: 'missing', daysApplied: 0, pastWarnings: {}, siblings: others };
    if (begun.status === 'already-final') return { status: 'already-final', finalStatus: begun.finalStatus, daysApplied: 0, pastWarnings: {}, siblings: others };
    // Claimed, yet applied by another attempt before this one's apply ran (a duplicate job): read what it left.
    return { ...(await this.repo.applyRequest(this.db, requestUid, WARNING_PAST, this.config.changes.enabled)), siblings: others };
  }
}
