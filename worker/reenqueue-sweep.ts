import type { AppContext } from '../shared/app/context.js';
import { durableRows, type DurableRowsOf } from '../shared/app/durable-rows.js';
import type { Jobs } from '../shared/infra/infra.js';
import { durableJobs, type DurableJobName, type DurableRows, type Durability, type JobRegistry } from '../shared/infra/queue/registry.js';

/*
 * The re-enqueue sweep, on a plain timer in every worker process rather than a BullMQ job
 * scheduler like the other maintenance: it exists for the moments the queue itself lost its state
 * (Redis flushed or replaced, an enqueue that failed after the commit, a job removed), and a
 * schedule kept in that same queue would be lost with it. Postgres holds the rows, so the sweep
 * reads them from there and asks the queue about each one. It iterates the registry's durable
 * jobs (Durability), grouped by the rows they stand for (shared/app/durable-rows.ts).
 */

export interface SweepResult {
  readded: number;
  markedError: number;
}

interface RowsGroup {
  rows: DurableRows;
  queue: keyof Jobs;
  declared: Map<DurableJobName, Durability>;
}

/** The registry's durable jobs grouped by their rows; all jobs of one kind of row share a queue. */
export function durableGroups(registry: JobRegistry): RowsGroup[] {
  const groups = new Map<DurableRows, RowsGroup>();
  for (const { job, queue, durable } of durableJobs(registry)) {
    const group = groups.get(durable.rows) ?? { rows: durable.rows, queue: queue as keyof Jobs, declared: new Map() };
    if (group.queue !== queue) throw new Error(`durable rows ${durable.rows} have jobs on two queues (${group.queue}, ${queue})`);
    group.declared.set(job, durable);
    groups.set(durable.rows, group);
  }
  return [...groups.values()];
}

/**
 * One kind of row: claims the rows whose job may be lost, then asks the queue about each (no
 * transaction open meanwhile). A job the queue does not hold is added again; one that failed for
 * good while Postgres could not be told is recorded on its row (failedForGood 'record') or added
 * again ('retry'); one the queue calls completed while the row is not final is removed and added
 * again (running a job twice is harmless: every handler checks its row).
 */
export async function sweepRows(ctx: AppContext, group: RowsGroup, of: DurableRowsOf, limit = 500): Promise<SweepResult> {
  const jobs = ctx.jobs[group.queue];
  const toAdd = new Map<DurableJobName, string[]>();
  let markedError = 0;
  for (const row of await of.claimLost(limit)) {
    const state = await jobs.jobState(row.uid);
    let add = state === 'unknown';
    if (state === 'failed' && group.declared.get(row.job)?.failedForGood === 'record' && of.recordFailure) {
      const failed = await jobs.failedReason(row.uid);
      await of.recordFailure(row.uid, failed?.reason ?? '', failed?.attempts ?? 0);
      markedError++;
    } else if (state === 'completed' || state === 'failed') {
      await jobs.remove(row.uid);
      add = true;
    }
    if (add) toAdd.set(row.job, [...(toAdd.get(row.job) ?? []), row.uid]);
  }
  let readded = 0;
  for (const [job, uids] of toAdd) {
    await (jobs.add as (uids: readonly string[], job: DurableJobName) => Promise<void>)(uids, job);
    readded += uids.length;
  }
  if (readded > 0) ctx.logger.info({ count: readded }, `re-enqueued stale ${of.label}`);
  of.counted?.(readded, markedError);
  return { readded, markedError };
}

/** One sweep over every kind of durable row; a failure of one kind never holds the others. */
export async function sweepOnce(ctx: AppContext, registry: JobRegistry): Promise<Partial<Record<DurableRows, SweepResult>>> {
  const rows = durableRows(ctx);
  const results: Partial<Record<DurableRows, SweepResult>> = {};
  for (const group of durableGroups(registry)) {
    try {
      results[group.rows] = await sweepRows(ctx, group, rows[group.rows]);
    } catch (err) {
      ctx.logger.warn({ err, rows: group.rows }, 're-enqueue sweep failed');
    }
  }
  return results;
}

export interface ReenqueueSweep {
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/** Sweeps every REENQUEUE_INTERVAL_MS; a sweep still running when the next is due is not doubled. */
export function startReenqueueSweep(ctx: AppContext, registry: JobRegistry): ReenqueueSweep {
  let sweeping: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = sweepOnce(ctx, registry).finally(() => {
      sweeping = undefined;
    });
  }, ctx.config.queue.reenqueueIntervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await sweeping;
    },
  };
}
