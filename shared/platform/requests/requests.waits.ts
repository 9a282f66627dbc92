import type { Infra } from '../../infra/infra.js';
import type { RequestRow, RequestsRepository } from './requests.repository.js';
import { z } from 'zod';
import { finalRequestStatuses, type RequestStatusView } from './requests.schema.js';
import { isFinalStatus, toStatusView } from './requests.status.js';
import { createRequestWaits, REQUEST_FINISHED_CHANNEL, type RequestWaits, type RequestWaitsOptions } from '../long-poll/index.js';

/** The row a request's finished notification carries (drizzle/0030_i37_request_finished_row.sql). */
const notifiedRow = z.object({
  uid: z.string(),
  status: z.enum(finalRequestStatuses),
  request_error: z.string().nullable(),
  property_uid: z.string(),
  days_total: z.number().int(),
  days_applied: z.number().int().nullable(),
  warnings: z.record(z.string(), z.unknown()),
  attempts: z.number().int(),
  created_dttm: z.string(),
  started_dttm: z.string().nullable(),
  finished_dttm: z.string().nullable(),
});

/** The status view of a notified row, as get-request-status shows the row read; undefined for none or one of another shape. */
function notifiedView(payload: unknown): RequestStatusView | undefined {
  const parsed = notifiedRow.safeParse(payload);
  if (!parsed.success) return undefined;
  const r = parsed.data;
  const at = (t: string | null) => (t === null ? null : new Date(t));
  return toStatusView(
    {
      uid: r.uid,
      status: r.status,
      requestError: r.request_error,
      propertyUid: r.property_uid,
      daysTotal: r.days_total,
      daysApplied: r.days_applied,
      warnings: r.warnings,
      attempts: r.attempts,
      createdDttm: new Date(r.created_dttm),
      startedDttm: at(r.started_dttm),
      finishedDttm: at(r.finished_dttm),
    },
    false,
  );
}

interface Pending {
  uids: Set<string>;
  readers: Array<{ resolve: (rows: Map<string, RequestRow>) => void; reject: (err: unknown) => void }>;
}

/**
 * get-request-status with `wait`, for one runtime: the LISTEN/NOTIFY hub (shared/platform/long-poll) and
 * the reads after a wake-up, merged per company within one turn of the event loop.
 */
export class RequestStatusWaits {
  readonly hub: RequestWaits;
  /** Reads asked in this turn of the event loop, per company (see readBatched). */
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly infra: Infra,
    private readonly repo: Pick<RequestsRepository, 'findRequests' | 'findFinishedRequestUids'>,
    opts: RequestWaitsOptions = {},
  ) {
    const db = infra.database.db;
    this.hub = createRequestWaits(infra.database.sql, REQUEST_FINISHED_CHANNEL, (company, uids) => repo.findFinishedRequestUids(db, company, uids), infra.logger, infra.metrics.longPollWaiters, opts);
  }

  /**
   * Answers at once when every request is final (or wait is 0), else holds until the last one
   * finishes (a NOTIFY wakes it), the time is up, the process stops (SIGTERM answers at once), or
   * the client goes away (`signal`: then nothing is read again). The waiter is registered before
   * the first read, so a request finishing in between is not missed. Costs one read before and one
   * after the wait; nothing while waiting. The read after the wait is shared by every waiter of the
   * company woken in the same turn of the event loop (one commit can finish hundreds of requests
   * at once: one query then, not hundreds).
   */
  async wait(
    companyUid: string,
    uids: readonly string[],
    waitSeconds: number,
    signal: AbortSignal | undefined,
    read: () => Promise<RequestStatusView[]>,
    paused: (rows: RequestRow[]) => Promise<boolean>,
  ): Promise<RequestStatusView[]> {
    if (waitSeconds <= 0) return read();
    const wait = this.hub.register(companyUid, uids);
    try {
      const first = await read();
      wait.settled(first.filter(isFinalStatus).map((s) => s.request_uid));
      const why = await wait.done(waitSeconds * 1000, signal);
      if (why === 'aborted' || first.every(isFinalStatus)) return first;
      // Every one that was not final came with its row in its notification: no read (drizzle/0030).
      const notified = wait.notifiedRows();
      const fromNotices = first.map((s) => (isFinalStatus(s) ? s : notifiedView(notified.get(s.request_uid))));
      if (fromNotices.every((s) => s !== undefined)) return fromNotices;
      const rows = await this.readBatched(companyUid, uids);
      // The first read found every uid; one removed since (retention) keeps its first status.
      const isPaused = await paused(rows);
      const byUid = new Map(rows.map((r) => [r.uid, r]));
      return first.map((s) => {
        const row = byUid.get(s.request_uid);
        return row ? toStatusView(row, isPaused) : s;
      });
    } finally {
      wait.cancel();
    }
  }

  /** Reads requests of a company, merged with every other read asked in the same turn. */
  private readBatched(companyUid: string, uids: readonly string[]): Promise<RequestRow[]> {
    let pending = this.pending.get(companyUid);
    if (!pending) {
      const fresh: Pending = { uids: new Set(), readers: [] };
      this.pending.set(companyUid, (pending = fresh));
      setImmediate(() => {
        this.pending.delete(companyUid);
        this.repo.findRequests(this.infra.database.db, companyUid, [...fresh.uids]).then(
          (rows) => {
            const found = new Map(rows.map((r) => [r.uid, r]));
            for (const r of fresh.readers) r.resolve(found);
          },
          (err: unknown) => {
            for (const r of fresh.readers) r.reject(err);
          },
        );
      });
    }
    for (const uid of uids) pending.uids.add(uid);
    return new Promise((resolve, reject) => {
      pending.readers.push({ resolve: (found) => resolve(uids.flatMap((u) => found.get(u) ?? [])), reject });
    });
  }

  /** SIGTERM: every waiter is answered now with its current statuses. */
  releaseAll(): void {
    this.hub.releaseAll();
  }

  close(): Promise<void> {
    return this.hub.close();
  }
}
