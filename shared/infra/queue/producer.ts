import type { JobsOptions, Queue } from 'bullmq';
import { withTimeout } from '../timeout.js';
import { pgErrorOf } from '../db/pg-error.js';
import type { QueueConnection } from './connection.js';
import type { Logger } from '../logger.js';
import {
  registeredJobs,
  type DurableJobName,
  type Durability,
  type JobName,
  type JobPayload,
  type JobRegistry,
  type JobResult,
  type JobsOf,
  type QueueName,
} from './registry.js';

/** A registered queue as BullMQ types it: the payloads, results and names of its jobs. */
export type RegisteredQueue<Q extends QueueName> = Queue<JobPayload<JobsOf<Q>>, JobResult<JobsOf<Q>>, JobsOf<Q>>;

export function openQueue<Q extends QueueName>(conn: QueueConnection, name: Q): RegisteredQueue<Q> {
  return conn.createQueue<JobPayload<JobsOf<Q>>, JobResult<JobsOf<Q>>, JobsOf<Q>>(name);
}

/** What a producer asks of a queue whose jobs are keyed by a durable row's uid (jobId = uid). */
export interface KeyedJobs<Q extends QueueName> {
  /**
   * Adds one job `job` per row uid (jobId = uid: a uid added twice is one job), its payload the
   * uid under the job's declared uidField (registry Durability), bounded by the time-out.
   */
  add(uids: readonly string[], job: DurableJobName & JobsOf<Q>): Promise<void>;
  jobState(uid: string): Promise<string>;
  failedReason(uid: string): Promise<{ reason: string; attempts: number } | undefined>;
  remove(uid: string): Promise<void>;
  queue: RegisteredQueue<Q>;
  close(): Promise<void>;
}

/**
 * Opens queue `name` for a producer: its errors heard (the rows are durable: a queue away is left
 * to the sweeps), and every question bounded by `timeoutMs` so no caller waits on an absent queue.
 */
export function keyedJobs<Q extends QueueName>(conn: QueueConnection, registry: JobRegistry, name: Q, timeoutMs: number): KeyedJobs<Q> {
  const queue = openQueue(conn, name);
  queue.on('error', () => {});
  return {
    queue,
    async add(uids, job) {
      if (uids.length === 0) return;
      const { uidField } = (registry.jobs[job] as { durable: Durability }).durable;
      const jobs = uids.map((uid) => jobOf(registry, job, { [uidField]: uid } as JobPayload<typeof job>, { jobId: uid }));
      await withTimeout(addJobs(queue, jobs as Parameters<typeof queue.addBulk>[0]), timeoutMs, `${name} enqueue`);
    },
    jobState: (uid) => withTimeout(queue.getJobState(uid), timeoutMs, 'getJobState'),
    async failedReason(uid) {
      const job = await withTimeout(queue.getJob(uid), timeoutMs, 'getJob');
      return job ? { reason: job.failedReason ?? '', attempts: job.attemptsMade } : undefined;
    },
    async remove(uid) {
      await withTimeout(queue.remove(uid), timeoutMs, 'remove');
    },
    close: () => queue.close(),
  };
}

/**
 * Queues the jobs of rows just committed: the one way a producer enqueues after its commit. The rows
 * are durable, so a queue that cannot take them now is logged and left to the re-enqueue sweep
 * (worker/reenqueue-sweep.ts): the caller's answer never fails or waits past the time-out for it.
 */
export async function enqueueAfterCommit(logger: Logger, what: string, uids: readonly string[], enqueue: (uids: readonly string[]) => Promise<void>): Promise<void> {
  if (uids.length === 0) return;
  try {
    await enqueue(uids);
  } catch (err) {
    logger.warn({ err, uids }, `queue unreachable after commit; the re-enqueue sweep will add these ${what}`);
  }
}

/**
 * Adds jobs to a queue: one alone with `add`, several with `addBulk` (one round trip). BullMQ's
 * addBulk builds an ioredis pipeline, and ioredis copies every script the client defines (BullMQ's
 * few dozen) onto each new pipeline, for a pipeline of one command: the pipeline's constructor
 * showed in the API's profile of the messages bench (issue 37), though back-to-back runs measured
 * no change in CPU per message beyond their noise.
 */
export async function addJobs<Q extends Queue>(queue: Q, jobs: Parameters<Q['addBulk']>[0]): Promise<void> {
  const [only] = jobs;
  if (jobs.length === 1 && only) await queue.add(only.name, only.data, only.opts);
  else if (jobs.length > 0) await queue.addBulk(jobs);
}

/** One job to add: its name, a payload of its schema's type, and the registry's options under `opts`. */
export function jobOf<N extends JobName>(registry: JobRegistry, name: N, data: JobPayload<N>, opts: JobsOptions = {}) {
  return { name, data, opts: { ...registry.jobs[name].options, ...opts } };
}

/**
 * Runs `run` again when Postgres broke a deadlock by aborting it (40P01), up to `tries` times with
 * a short random pause. Workers starting together upsert the same schedulers at once, and the
 * Postgres backend's upsert can deadlock with another's (seen in CI: a worker failed to start).
 * Any other error, or the last deadlock, is thrown.
 */
export async function retryingDeadlocks<T>(run: () => Promise<T>, tries = 5, pauseMs = 50): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (attempt >= tries || pgErrorOf(err)?.code !== '40P01') throw err;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * pauseMs * attempt));
    }
  }
}

/**
 * Declares every scheduled job of the registry to its queue (BullMQ job schedulers, id = job
 * name). Upserting is idempotent, so every worker does it at start: the last one to start wins
 * with the same schedule, and a changed period takes effect with the next deploy.
 */
export async function upsertSchedulers(conn: QueueConnection, registry: JobRegistry): Promise<string[]> {
  const scheduled = registeredJobs(registry).filter((job) => job.every !== undefined);
  const upserted: string[] = [];
  for (const job of scheduled) {
    const queue = conn.createQueue(job.queue);
    // A Queue re-emits its connection's errors; unheard, an 'error' event is thrown and kills a
    // worker starting while Redis is away. The upsert's own rejection is what the caller sees.
    queue.on('error', () => {});
    try {
      await retryingDeadlocks(() => queue.upsertJobScheduler(job.name, { every: job.every }, { name: job.name, data: {}, opts: job.options }));
      upserted.push(job.name);
    } finally {
      await queue.close();
    }
  }
  return upserted;
}

/**
 * Declares again the scheduled jobs the queue no longer holds (its state lost: Redis restarted
 * without persistence, the Postgres backend's tables emptied), on the worker's open queues.
 * Schedulers still there are left alone: upserting them would move their next run. Answers the
 * names declared again (a new scheduler runs its job at once).
 */
export async function restoreLostSchedulers(queues: ReadonlyMap<string, Queue>, registry: JobRegistry): Promise<string[]> {
  const restored: string[] = [];
  for (const job of registeredJobs(registry).filter((j) => j.every !== undefined)) {
    const queue = queues.get(job.queue);
    if (!queue || (await queue.getJobScheduler(job.name))) continue;
    await retryingDeadlocks(() => queue.upsertJobScheduler(job.name, { every: job.every! }, { name: job.name, data: {}, opts: job.options }));
    restored.push(job.name);
  }
  return restored;
}
