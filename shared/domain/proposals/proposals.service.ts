import type { Infra } from '../../infra/infra.js';
import { badParam, conflict, notFound, shown } from '../../infra/errors.js';
import { newUid } from '../../infra/ids.js';
import { localDate, utcDateTime } from '../../infra/time.js';
import {
  applyDayRules,
  calendarViewQuery,
  rangeDays,
  type CalendarViewRow,
  withPreview,
  type CalendarService,
  type JudgedDays,
  type Submitter,
} from '../calendar/index.js';
import { recordChange, recordChanges } from '../changes/index.js';
import type { IdempotencyKey } from '../../platform/idempotency/index.js';
import type { RequestPipeline } from '../../platform/requests/index.js';
import { unknownProperty, type PropertiesService } from '../properties/index.js';
import { BaseService } from '../service.js';
import { type ProposalsRepository } from './proposals.repository.js';
import { toPendingProposal, type PendingProposal, type ReviewOutcome } from './proposals.review.js';
import { requireMarkedTicked, selectReviewContext, type ReviewContext } from './proposals.guard.js';
import type { Executor } from '../../infra/db/client.js';
import type { PendingProposalRow } from './proposals.repository.js';
import type { ProposalAnswer, ProposeCalendarBatchBody, ProposeCalendarRangeBody, SetCalendarControlBody } from './proposals.schema.js';

/** The warning a day gets when the review drops it (its request's warnings, read by get-request-status). */
export const WARNING_NOT_APPROVED = 'Day ignored - not approved';
export const WARNING_REJECTED = 'Day ignored - proposal rejected';
export const WARNING_EXPIRED = 'Day ignored - proposal expired';

const DAY_MS = 86_400_000;
/** Proposals one expiry transaction takes; a run repeats until nothing is due. */
const EXPIRE_BATCH = 200;
/** Pending proposals one list shows at most (oldest first). */
const LIST_MAX = 200;

/**
 * Proposals (iGMS propose-calendar-batch / propose-calendar-data) and their review. A proposal's
 * days are judged by the calendar's own rules and stored through its one submission path
 * (CalendarService.submit; a review through the request pipeline's submit): `queued` at once where the property allows calendar control, else
 * `paused` under a proposal until the manager approves (all or some days), rejects, or it expires.
 *
 * Race safety: a review locks the proposal row and changes it only while pending, so of two racing
 * reviewers exactly one decides; the other waits for the lock, then is refused with 409. The expiry
 * skips proposals a reviewer holds locked. Approved requests take a fresh submission sequence in
 * the review's transaction and are queued after its commit.
 */
export class ProposalsService extends BaseService {
  constructor(
    infra: Infra,
    private readonly calendar: CalendarService,
    private readonly requests: RequestPipeline,
    private readonly properties: PropertiesService,
    private readonly repo: ProposalsRepository,
  ) {
    super(infra);
  }

  /**
   * POST /api/v2/set-property-calendar-control and the console's switch: the flag, and a `property`
   * change in the same transaction when the value changed.
   */
  async setCalendarControl(companyUid: string, body: SetCalendarControlBody): Promise<{ status: 0 }> {
    await this.db.transaction(async (tx) => {
      const changed = await this.repo.setCalendarControl(tx, companyUid, body.property_uid, body.calendar_control_allowed);
      if (changed === undefined) throw unknownProperty(body.property_uid);
      if (changed) await recordChange(tx, { company: companyUid, kind: 'property', objectUid: body.property_uid });
    });
    return { status: 0 };
  }

  /** POST /api/v1/calendar-batch: set-calendar-batch's days, judged as it judges them. */
  async proposeBatch(companyUid: string, body: ProposeCalendarBatchBody, by: Submitter, idempotencyKey?: string, dryRun = false): Promise<ProposalAnswer> {
    const property = await this.properties.require(companyUid, body.property_uid);
    const judged = applyDayRules(body.days, localDate(property.timeZone));
    if (dryRun) return this.dryRun(companyUid, property.uid, judged, by);
    return this.propose(companyUid, property.uid, judged, body.is_user_action, by, keyOf(companyUid, by, body, idempotencyKey));
  }

  /** POST /api/v1/calendar: every date of the range a day with the body's price, currency and minimum stay. */
  async proposeRange(companyUid: string, body: ProposeCalendarRangeBody, by: Submitter, idempotencyKey?: string, dryRun = false): Promise<ProposalAnswer> {
    const property = await this.properties.require(companyUid, body.property_uid);
    const judged = applyDayRules(rangeDays(body), localDate(property.timeZone));
    if (dryRun) return this.dryRun(companyUid, property.uid, judged, by);
    return this.propose(companyUid, property.uid, judged, body.is_user_action, by, keyOf(companyUid, by, body, idempotencyKey));
  }

  /**
   * ?dry_run=true: judged above exactly as for real, then the calendar's one submission path stops
   * before storing (CalendarService.submit with dryRun): nothing stored or queued, no proposal
   * made; the preview shows each kept date as it will read once applied (once approved, where the
   * property does not allow calendar control).
   */
  private async dryRun(companyUid: string, propertyUid: string, judged: JudgedDays, by: Submitter): Promise<ProposalAnswer> {
    const answer = (uids: string[]) => ({ status: 0 as const, data: { request_uids: uids, warnings: judged.warnings } });
    return withPreview(await this.calendar.submit({ companyUid, propertyUid, days: judged, by, answer, dryRun: true }));
  }

  /**
   * Through the calendar's one submission path (CalendarService.submit). The flag is read in the
   * transaction that stores the requests (under a share lock, see lockCalendarControl): allowed,
   * they are queued exactly as set-calendar-batch's; else they are stored `paused` under a new
   * proposal and nothing is queued.
   */
  private async propose(companyUid: string, propertyUid: string, judged: JudgedDays, isUserAction: boolean, by: Submitter, key?: IdempotencyKey): Promise<ProposalAnswer> {
    const { answer } = await this.calendar.submit({
      companyUid,
      propertyUid,
      days: judged,
      by,
      key,
      answer: (uids) => ({ status: 0 as const, data: { request_uids: uids, warnings: judged.warnings } }),
      holdUnder: async (tx, requests) => {
        const allowed = await this.repo.lockCalendarControl(tx, companyUid, propertyUid);
        if (allowed === undefined) throw unknownProperty(propertyUid);
        if (allowed || requests === 0) return undefined;
        const proposalUid = newUid('pp_');
        await this.repo.insertProposal(tx, { uid: proposalUid, companyUid, propertyUid, isUserAction, ...(by.appUid ? { appUid: by.appUid } : {}) });
        return proposalUid;
      },
    });
    return answer;
  }

  /** The company's pending proposals, oldest first: each day's proposed values beside the ones they would replace. */
  async listPending(companyUid: string, proposalUid?: string): Promise<PendingProposal[]> {
    const rows = await this.repo.selectPending(this.db, companyUid, LIST_MAX, proposalUid);
    // One review context per property (over all its proposals' dates), one calendar read per proposal.
    const spans = new Map<string, [string, string]>();
    for (const row of rows) {
      const [from, to] = spanOf(row);
      const had = spans.get(row.property_uid);
      spans.set(row.property_uid, had ? [from < had[0] ? from : had[0], to > had[1] ? to : had[1]] : [from, to]);
    }
    const contexts = new Map(
      [...spans].map(([property, [from, to]]) => [property, selectReviewContext(this.db, companyUid, property, from, to)] as const),
    );
    return Promise.all(rows.map((row) => this.judged(this.db, companyUid, row, contexts.get(row.property_uid))));
  }

  /** A pending proposal's days beside their current values, judged by the guardrails (two statements run together). */
  private async judged(db: Executor, companyUid: string, row: PendingProposalRow, shared?: Promise<ReviewContext | undefined>): Promise<PendingProposal> {
    const [from, to] = spanOf(row);
    const [current, context] = await Promise.all([
      row.days.length === 0 ? [] : db.execute<CalendarViewRow>(calendarViewQuery(companyUid, row.property_uid, from, to)),
      shared ?? selectReviewContext(db, companyUid, row.property_uid, from, to),
    ]);
    if (!context) throw unknownProperty(row.property_uid);
    return toPendingProposal(row, [...current], this.expiresAt(row.created_dttm), context);
  }

  /** When a proposal created at `created` (UTC wire time) expires unreviewed. */
  expiresAt(created: string): string {
    return utcDateTime(new Date(Date.parse(`${created.replace(' ', 'T')}Z`) + this.config.proposals.ttlDays * DAY_MS));
  }

  /**
   * Approves every day, or only `dates` (each must be a day of the proposal); the others end
   * `disabled`. `ticked` (the console): the marked dates the reviewer ticked one by one; a marked
   * date being approved without its tick refuses the whole approval (400), nothing changed.
   */
  async approve(companyUid: string, proposalUid: string, reviewer: string, dates?: readonly string[], ticked?: readonly string[]): Promise<ReviewOutcome> {
    if (dates !== undefined && dates.length === 0) throw badParam('dates', 'Give at least one date to approve (to approve none, reject the proposal)');
    return this.review(companyUid, proposalUid, reviewer, dates === undefined ? null : [...new Set(dates)], ticked);
  }

  /** Rejects the proposal: every request ends `disabled`, nothing is applied. */
  reject(companyUid: string, proposalUid: string, reviewer: string): Promise<ReviewOutcome> {
    return this.review(companyUid, proposalUid, reviewer, 'reject');
  }

  /**
   * One transaction: lock the proposal (still pending, else 409), give the approved requests a fresh
   * sequence and `queued`, end the rest `disabled`, decide the proposal, record `proposal.reviewed`;
   * after the commit the approved requests are queued (RequestPipeline.submit).
   */
  private async review(companyUid: string, proposalUid: string, reviewer: string, approve: string[] | null | 'reject', ticked?: readonly string[]): Promise<ReviewOutcome> {
    const { answer } = await this.requests.submit(async (tx) => {
      const proposal = await this.repo.lockProposal(tx, companyUid, proposalUid);
      if (!proposal) throw notFound('proposal_uid', `Unknown proposal ${shown(proposalUid)}`);
      if (proposal.status !== 'pending') throw conflict('proposal_uid', `Proposal ${shown(proposalUid)} is not pending (it is ${proposal.status})`);
      let status: ReviewOutcome['status'] = approve === 'reject' ? 'rejected' : 'approved';
      if (Array.isArray(approve)) {
        const days = new Set(await this.repo.proposalDates(tx, proposal.uid));
        const unknown = approve.find((d) => !days.has(d));
        if (unknown !== undefined) throw badParam('dates', `${shown(unknown)} is not a date of proposal ${shown(proposalUid)}`);
        if (approve.length < days.size) status = 'partly_approved';
      }
      if (ticked !== undefined && approve !== 'reject') {
        // Judged under the proposal's lock, against the values as they are now.
        const [row] = await this.repo.selectPending(tx, companyUid, 1, proposal.uid);
        if (row) {
          const p = await this.judged(tx, companyUid, row);
          requireMarkedTicked(p.days, approve, ticked, p.context);
        }
      }
      const { queued, disabled } = await this.repo.reviewRequests(tx, proposal.uid, approve === 'reject' ? [] : approve, approve === 'reject' ? WARNING_REJECTED : WARNING_NOT_APPROVED);
      await this.repo.decideProposal(tx, proposal.uid, status, reviewer);
      await recordChange(tx, { company: companyUid, kind: 'property', objectUid: proposal.propertyUid, event: 'proposal.reviewed' });
      const outcome: ReviewOutcome = { proposal_uid: proposal.uid, status, request_uids: queued, disabled_request_uids: disabled };
      return { answer: outcome, uids: [...queued, ...disabled], queue: queued };
    });
    return answer;
  }

  /**
   * Pending proposals older than PROPOSAL_TTL_DAYS, or whose dates have all passed, end `expired`
   * with their requests `disabled` (the scheduled job expire-proposals). Answers how many expired.
   */
  async expireDue(now: Date = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.config.proposals.ttlDays * DAY_MS);
    let total = 0;
    for (;;) {
      const expired = await this.db.transaction(async (tx) => {
        const due = await this.repo.lockDueProposals(tx, cutoff, EXPIRE_BATCH);
        for (const p of due) {
          await this.repo.reviewRequests(tx, p.uid, [], WARNING_EXPIRED);
          await this.repo.decideProposal(tx, p.uid, 'expired', 'expiry');
        }
        await recordChanges(tx, due.map((p) => ({ company: p.company_uid, kind: 'property' as const, objectUid: p.property_uid, event: 'proposal.reviewed' })));
        return due.length;
      });
      total += expired;
      if (expired < EXPIRE_BATCH) return total;
    }
  }
}

/** The first and last date of a proposal (its days are in date order). */
function spanOf(row: PendingProposalRow): [string, string] {
  return [row.days[0]?.date ?? '2000-01-01', row.days[row.days.length - 1]?.date ?? '2000-01-01'];
}

function keyOf(companyUid: string, by: Submitter, body: unknown, key: string | undefined): IdempotencyKey | undefined {
  return key === undefined ? undefined : { tokenUid: by.tokenUid, companyUid, key, body };
}
