import { sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../infra/db/client.js';
import { compiledOnce, runQuery, type Query } from '../../infra/db/compiled.js';
import { notFound, shown } from '../../infra/errors.js';
import type { Infra } from '../../infra/infra.js';
import { enqueueAfterCommit } from '../../infra/queue/producer.js';
import { pumpModeOf } from '../../infra/queue/calendar-ready-list.js';
import { requestJobs, type DurableJobName } from '../../infra/queue/registry.js';
import { idempotent, type IdempotencyKey, type KeyClaim } from '../idempotency/index.js';
import type { RequestWaitsOptions } from '../long-poll/index.js';
import { markProcessingSql, type RequestRow, type RequestsRepository } from './requests.repository.js';
import type { RequestKind, RequestStatusView } from './requests.schema.js';
import { toStatusView } from './requests.status.js';
import { RequestStatusWaits } from './requests.waits.js';

/** What a store of the submission path wrote: the answer, every request it wrote, the ones to queue now. */
export interface StoredRequests<A> {
  answer: A;
  uids: string[];
  queue: string[];
  /** `queue` is one batch of calendar requests (one property, distinct dates): queued as one job (CalendarJobs.enqueue). */
  oneBatch?: boolean;
}

/** How a submission is stored: the Idempotency-Key it is recorded under, the kind of its requests (their job). */
export interface SubmitOptions {
  key?: IdempotencyKey;
  kind?: RequestKind;
  /**
   * The store writes one statement: it is sent alone on the pool, committing by itself (one round
   * trip, not BEGIN / write / COMMIT), and the store is told so (`alone`: its insert then settles a
   * lost connection itself, InsertOptions.alone). With a key, the store is given its claim, to make
   * in that statement (`claim`: InsertOptions.keyed).
   */
  oneStatement?: boolean;
}

/** Where a worker's claim of a request left it (`begin`). */
export type Begun = { status: 'processing' } | { status: 'missing' } | { status: 'already-final'; finalStatus: string };

/**
 * The durable request pipeline, one for every kind of request (calendar days, listing statuses):
 * store in one transaction (with the Idempotency-Key), queue after the commit, claim in the
 * worker, fail for good, find what the queue lost, and read statuses back (get-request-status and
 * its long-poll). Each kind's apply lives with its noun; everything around it lives here.
 */
export class RequestPipeline {
  /** Long-poll waiters of get-request-status; listens (one connection) only once someone waits. */
  readonly waits: RequestStatusWaits;

  constructor(
    private readonly infra: Infra,
    private readonly repo: RequestsRepository,
    waitOptions: RequestWaitsOptions = {},
  ) {
    this.waits = new RequestStatusWaits(infra, repo, waitOptions);
  }

  private get db(): Db {
    return this.infra.database.db;
  }

  /** The repository's insert, for a store to call inside its transaction. */
  get insert(): RequestsRepository['insertRequests'] {
    return this.repo.insertRequests;
  }

  /**
   * The one submission path of every request, whatever its kind (calendar days, listing statuses,
   * a proposal stored or approved). `store` writes in one transaction (with the Idempotency-Key,
   * if any) and says which of its requests to queue; only after the commit are they queued. A
   * queue that cannot be reached does not fail the answer: the requests are durable and the
   * re-enqueue sweep adds them later. A replayed key answers as before and queues nothing.
   */
  async submit<A>(store: (tx: Executor, alone: boolean, claim?: KeyClaim) => Promise<StoredRequests<A>>, opts: SubmitOptions = {}): Promise<{ answer: A; uids: string[] }> {
    let stored: StoredRequests<A> | undefined;
    const write = async (tx: Executor, alone = false, claim?: KeyClaim) => {
      stored = await store(tx, alone, claim);
      return stored.answer;
    };
    const { key, kind = 'calendar' } = opts;
    // Without a key `idempotent` runs the write on the pool: a store of one statement is sent
    // alone, a store of several gets its own transaction.
    const unkeyed = opts.oneStatement ? (db: Executor) => write(db, true) : (db: Executor) => (db as Db).transaction((tx) => write(tx));
    const claimedInWrite = opts.oneStatement ? (claim: KeyClaim) => write(this.db, true, claim) : undefined;
    const outcome = await idempotent(this.db, this.infra.config.idempotency.ttlHours, key, key ? write : unkeyed, claimedInWrite);
    if (outcome.replayed || !stored) return { answer: outcome.answer, uids: [] };
    // No enqueued_at write here: it would cost a second commit per batch. The sweep asks the queue
    // itself whether a job exists before adding it again.
    const oneBatch = stored.oneBatch === true && kind === 'calendar';
    // The calendar pump's (CALENDAR_PUMP): the batch named on the ready list now that it is
    // committed, or (notify) the insert woke the pumps at its commit. A push that fails leaves the
    // batch to the pumps' poll and the sweep.
    const pump = oneBatch ? pumpModeOf(this.infra) : 'off';
    if (pump === 'list' && stored.queue.length > 0) {
      await this.infra.jobs.calendar.ready?.push(stored.queue).catch((err: unknown) => this.infra.logger.warn({ err }, 'calendar ready list: push failed; the pumps poll for the batch'));
    }
    if (pump !== 'off') return { answer: outcome.answer, uids: stored.uids };
    await enqueueAfterCommit(this.infra.logger, 'requests', stored.queue, (uids) => this.infra.jobs.calendar.enqueue(uids, requestJobs[kind], { oneBatch }));
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
    return uids.map((u) => toStatusView(byUid.get(u) as RequestRow, paused));
  }

  /** get-request-status with `wait` (see RequestStatusWaits). */
  async waitForStatuses(companyUid: string, uids: readonly string[], param: string, waitSeconds: number, signal?: AbortSignal): Promise<RequestStatusView[]> {
    return this.waits.wait(companyUid, uids, waitSeconds, signal, () => this.statuses(companyUid, uids, param), (rows) => this.queuePaused(rows));
  }

  /** Whether a queued request reads `paused`: asked of the queue only when one is queued. */
  private async queuePaused(rows: readonly Pick<RequestRow, 'status'>[]): Promise<boolean> {
    return rows.some((r) => r.status === 'queued') ? this.infra.jobs.calendar.isPaused().catch(() => false) : false;
  }

  /**
   * Worker: marks the request processing (counting the attempt) before its kind applies it. A
   * request already final is left alone, so a retry or a duplicate job changes nothing.
   */
  async begin(requestUid: string): Promise<Begun> {
    return begunAs(await this.repo.markProcessing(this.db, requestUid));
  }

  /**
   * `begin` for a job's request and the other requests of its batch applied with it (`uids`, the
   * job's first), then the kind's apply statement if any of them is left to apply: the apply runs after the claim has committed,
   * so `processing` is what a status read shows meanwhile; it must itself change nothing of a
   * request no longer queued or processing (it runs whatever the claim found). Answers the claim
   * of the job's request and the apply's rows.
   */
  async beginAnd(uids: readonly string[], apply: SQL | Query): Promise<{ begun: Begun; rows: Record<string, unknown>[] }> {
    const marked = await runQuery(this.infra.database, markProcessingQuery(uids.join(',')));
    // Nothing of them left to apply (a duplicate job, a retry after the outcome was recorded): no apply.
    const rows = marked.some((m) => m.status === 'processing') ? await runQuery(this.infra.database, apply) : [];
    return { begun: begunAs(marked.find((m) => m.uid === uids[0]) as { status: string } | undefined), rows };
  }

  /**
   * The job's claim in its apply (issue 37: one statement and one round trip a job, not two):
   * `claiming`, the kind's apply that also counts the attempt and stamps the start, is sent alone.
   * When it waits on a lock past its limit (lock_not_available: a request held up by another
   * apply, a booking's stay lock, a held row), it gives way to `beginAnd(uids, apply)`, so a request
   * held up shows `processing` while it waits, as it did with the claim first. A request the
   * statement did not complete is read back: gone (missing), or already final.
   */
  async claimAndApply(uids: readonly string[], claiming: Query, apply: Query | undefined): Promise<{ begun: Begun; rows: Record<string, unknown>[] }> {
    let rows: Record<string, unknown>[];
    try {
      rows = await runQuery(this.infra.database, claiming);
    } catch (err) {
      // No `apply` given: a claim held up is the caller's to hand on (the calendar pump).
      if ((err as { code?: string }).code !== LOCK_NOT_AVAILABLE || !apply) throw err;
      return this.beginAnd(uids, apply);
    }
    if (rows.some((r) => r.uid === uids[0])) return { begun: { status: 'processing' }, rows };
    const [found] = await runQuery(this.infra.database, statusQuery(uids[0] ?? ''));
    const begun = begunAs(found as { status: string } | undefined);
    // Not final, yet not applied (its property gone under it): a retry, never a silent completion.
    if (found?.status === 'queued' || found?.status === 'processing') throw new Error(`request ${uids[0]} was not applied (still ${found.status})`);
    return { begun, rows };
  }

  /**
   * The calendar pump's hand-over (CalendarService.handOver): these requests, still queued or
   * processing, marked handed to the queue (`enqueued_at`: no pump takes them again, and the sweep
   * adds their job again if it is lost). Answers those marked, oldest first.
   */
  async markHandedOver(uids: readonly string[]): Promise<string[]> {
    return this.repo.markHandedOver(this.db, uids);
  }

  /** Calendar requests stored and not yet started (nor handed to the queue): the calendar pumps' backlog. */
  waiting(): Promise<number> {
    return this.repo.countUnstartedRequests(this.db);
  }

  /** Worker: the request failed for good after `attempts` runs; answers the webhook event written with it, if any. */
  fail(requestUid: string, message: string, attempts = 0): Promise<string | undefined> {
    return this.repo.markError(this.db, requestUid, message, attempts);
  }

  /** The re-enqueue sweep's claim: requests whose job may be lost (see claimStaleRequests), each with its kind's job. */
  async claimStale(limit: number): Promise<{ uid: string; job: DurableJobName }[]> {
    const stale = await this.repo.claimStaleRequests(this.db, this.infra.config.queue.reenqueueAfterMs, limit);
    return stale.map((r) => ({ uid: r.uid, job: requestJobs[r.kind] }));
  }

  close(): Promise<void> {
    return this.waits.close();
  }
}

const markProcessingQuery = compiledOnce(markProcessingSql);
const statusQuery = compiledOnce((uid: string) => sql`select status from calendar_requests where uid = ${uid}`);
/** Postgres's lock_not_available: a lock not granted within lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

function begunAs(marked: { status: string } | undefined): Begun {
  if (!marked) return { status: 'missing' };
  if (marked.status !== 'processing') return { status: 'already-final', finalStatus: marked.status };
  return { status: 'processing' };
}
