import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import type { Config } from '../config.js';
import { uidValue } from '../http/wire.js';
import type { RequestKind } from '../db/schema/calendar.js';

/*
 * The job registry: every queue and every job of the service, with its payload schema, its result
 * and its default options, and the schedule of periodic maintenance. Nothing else names a queue or
 * a job: producers (shared/queue/producer.ts), the worker's handler map (worker/handlers.ts, typed
 * over these names: a missing handler is a type error and a start-up refusal) and the schedulers
 * all derive from here. Adding a job is one entry below and one handler; a queue, one entry in
 * `queues`; periodic maintenance, `every` on its job.
 *
 * Vocabulary
 * - batch:   one POST /set-calendar-batch body: a property and its days.
 * - day:     one date of a batch with the fields to change (price+currency, availability,
 *            min stay, notes).
 * - chunk:   at most CALENDAR_CHUNK_DAYS days of a batch, after merging duplicate dates and
 *            dropping skipped days.
 * - request: a chunk stored durably as a `calendar_requests` row with a submission sequence
 *            number; its uid is what the client polls and is the BullMQ jobId.
 * - warning: a skipped day's date -> message, kept on the request (never an exception).
 * - kind:    what a request changes: calendar days, or listing statuses (set-listing-status);
 *            one table, one sequence, one queue, one job per kind.
 * - proposal: days a pricing app proposed for a property without calendar control, kept in
 *            `paused` requests until approved (then queued) or rejected / expired (`disabled`).
 *
 * - event:   a webhook event (outbox row) telling an app that one of its requests finished; its
 *            uid is the delivery job's id.
 *
 * - message: an outbound text to a guest (messages row); its uid is the send-message job's id.
 *
 * Payloads carry ids, not data: Postgres holds the request, the queue holds the pointer.
 */

const applyCalendarRequestResult = z.object({ daysApplied: z.number().int(), skippedPast: z.number().int() });
const applyListingStatusResult = z.object({ listingsChanged: z.number().int() });

const deliverWebhookResult = z.object({
  outcome: z.enum(['delivered', 'failed', 'skipped']),
  statusCode: z.number().int().nullable().optional(),
  error: z.string().nullable().optional(),
  reason: z.string().optional(),
});

/**
 * Retry delays of deliveries and sends: exponential from the first delay, doubling per retry, never
 * above the cap (a receiver back after an hour's outage gets its events within the cap, not after
 * a day-long doubling). BullMQ calls `cappedBackoffStrategy` for the `capped` backoff type; the
 * handlers use `retryDelayMs` to decide whether the next retry still falls inside the maximum age.
 */
export interface CappedBackoff {
  delayMs: number;
  maxMs: number;
}

export function retryDelayMs(b: CappedBackoff, retriesSoFar: number): number {
  return Math.min(b.maxMs, b.delayMs * 2 ** Math.min(retriesSoFar, 52));
}

/**
 * BullMQ attempts for a delivery: enough capped exponential retries to span the maximum age (plus
 * the first attempt). The handler itself marks the event failed once the next retry would fall past
 * that age, so this is a ceiling.
 */
export function attemptsToSpan(b: CappedBackoff, maxAgeMs: number): number {
  let attempts = 1;
  for (let waited = 0; waited < maxAgeMs; attempts++) waited += retryDelayMs(b, attempts - 1);
  return attempts;
}

export const CAPPED_BACKOFF = 'capped';

/**
 * The worker's backoff strategy for jobs whose backoff type is `capped` (BullMQ: attemptsMade >= 1).
 * A job's own `backoff.delay` is its first retry's delay (the registry gives every job the
 * definition's; the message pump's hand-over gives the next one after the pump's attempt), doubled
 * from there up to the definition's cap.
 */
export function cappedBackoffStrategy(registry: JobRegistry) {
  return (attemptsMade: number, type: string | undefined, _err: Error | undefined, job: { name: string; opts?: { backoff?: number | { delay?: number } } } | undefined): number => {
    const definition = job ? (registry.jobs as Record<string, { backoff?: CappedBackoff }>)[job.name] : undefined;
    if (type !== CAPPED_BACKOFF || !definition?.backoff) throw new Error(`no backoff strategy ${String(type)} for job ${job?.name ?? '?'}`);
    const own = job?.opts?.backoff;
    const first = typeof own === 'object' && own.delay !== undefined ? own.delay : definition.backoff.delayMs;
    return retryDelayMs({ delayMs: first, maxMs: definition.backoff.maxMs }, attemptsMade - 1);
  };
}

function cappedRetries(b: CappedBackoff, maxAgeMs: number): Pick<JobsOptions, 'attempts' | 'backoff'> {
  return { attempts: attemptsToSpan(b, maxAgeMs), backoff: { type: CAPPED_BACKOFF, delay: b.delayMs } };
}

const sendMessageResult = z.object({ outcome: z.enum(['completed', 'error', 'skipped']), reason: z.string().optional() });

/** Scheduled maintenance carries nothing: it works on whatever is due when it runs. */
const noPayload = z.object({});
const prunedRows = z.object({ deleted: z.number().int() });
const expiredRows = z.object({ expired: z.number().int() });

interface QueueDefinition {
  /** Jobs of this queue one worker process runs at once. */
  concurrency: number;
}

/**
 * The Postgres rows that hold durable work; each row's uid is its job's id. The queue is a pointer
 * to them and may lose it (Redis flushed, an enqueue after the commit that failed, a job removed).
 */
export type DurableRows = 'calendar_requests' | 'messages' | 'webhook_events';

/**
 * A durable job's declaration: which rows it stands for, the payload field that carries the row's
 * uid, and what a job the queue failed for good (while Postgres could not be told) becomes:
 * `record` the failure on the row, or `retry` (add it again: the handler settles the row itself).
 * The re-enqueue sweep (worker/reenqueue-sweep.ts) iterates these declarations; the composition
 * root supplies, per DurableRows, how to claim the rows whose job may be lost and how to record a
 * failure (shared/app/durable-rows.ts).
 */
export interface Durability {
  rows: DurableRows;
  uidField: string;
  failedForGood: 'record' | 'retry';
}

/**
 * A durable job's declaration and the payload it implies: the row's uid, under `uidField` (the
 * field is named once, so the sweep and the producers cannot disagree on it).
 */
function standsFor<F extends string>(rows: DurableRows, uidField: F, failedForGood: Durability['failedForGood'], uid: z.ZodString = z.string().min(1).max(120)) {
  const durable: Durability = { rows, uidField, failedForGood };
  return { durable, payload: z.object({ [uidField]: uid } as Record<F, z.ZodString>) };
}

/**
 * A request's job that may also carry the other requests of its batch (`siblings`): the calendar
 * queues one job per batch, and its apply claims and applies them all in one statement (issue 37).
 * The re-enqueue sweep adds a job of its own for any of them still waiting.
 */
function batchOf<D extends ReturnType<typeof standsFor<'requestUid'>>>(job: D) {
  return { ...job, payload: job.payload.extend({ siblings: z.array(uidValue()).max(1000).optional() }) };
}

interface JobDefinition<Q extends string> {
  queue: Q;
  /** Present on jobs that stand for durable rows (see Durability). */
  durable?: Durability;
  payload: z.ZodType;
  result: z.ZodType;
  options: JobsOptions;
  /** The retry delays of a job whose options' backoff type is CAPPED_BACKOFF. */
  backoff?: CappedBackoff;
  /**
   * Runs every `every` ms as a BullMQ job scheduler (id = the job name), upserted by each worker
   * at start: whichever worker takes the job runs it, once per period across all of them, on Redis
   * and on the Postgres backend alike. The first run is at once.
   */
  every?: number;
}

export function jobRegistry(config: Config) {
  const queues = {
    calendar: { concurrency: config.queue.concurrency },
    // Short housekeeping statements, never holding calendar slots. Two at a time: the fan-out runs
    // most of every second while the feed is busy, and a prune or a vacuum beside it must not
    // hold its next pass back.
    maintenance: { concurrency: 2 },
    // Deliveries wait on other people's servers: their own queue and concurrency, so a slow
    // receiver never takes a slot from the calendar apply.
    webhooks: { concurrency: config.webhooks.concurrency },
    // Messages wait on SMTP servers and connectors: their own queue, like webhooks.
    messages: { concurrency: config.messaging.concurrency },
  } as const satisfies Record<string, QueueDefinition>;

  // A failed prune is simply run again at its next period; keep a little history to look at.
  const maintenanceOptions = { attempts: 1, removeOnComplete: { count: 10 }, removeOnFail: { count: 50 } } satisfies JobsOptions;
  // Bounded retention keeps Redis memory flat however many jobs pass through; failures kept longer.
  const kept = { removeOnComplete: { age: 3600, count: 5000 }, removeOnFail: { age: 7 * 24 * 3600, count: 20000 } } satisfies JobsOptions;
  const requestOptions = { attempts: config.queue.attempts, backoff: { type: 'exponential', delay: config.queue.backoffMs }, ...kept } satisfies JobsOptions;
  // Deliveries and sends: the capped backoff the strategy reads, and enough attempts to span the maximum age.
  const retriedUntilMaxAge = (s: { backoff: CappedBackoff; maxAgeMs: number }) => ({
    backoff: s.backoff,
    options: { ...cappedRetries(s.backoff, s.maxAgeMs), ...kept } satisfies JobsOptions,
  });

  const jobs = {
    'apply-calendar-request': {
      queue: 'calendar',
      ...batchOf(standsFor('calendar_requests', 'requestUid', 'record', uidValue())),
      result: applyCalendarRequestResult,
      options: requestOptions,
    },
    /**
     * Applies one set-listing-status request (a second kind of request, same table, queue, status
     * method and re-enqueue sweep as the calendar's).
     */
    'apply-listing-status': {
      queue: 'calendar',
      ...standsFor('calendar_requests', 'requestUid', 'record', uidValue()),
      result: applyListingStatusResult,
      options: requestOptions,
    },
    /** POSTs one webhook event to its app's callback; retried with backoff up to WEBHOOK_MAX_AGE_MS. */
    'deliver-webhook': {
      queue: 'webhooks',
      // The handler itself marks an event failed once it is past WEBHOOK_MAX_AGE_MS: a job the
      // queue gave up on is added again, to be settled by it.
      ...standsFor('webhook_events', 'eventUid', 'retry'),
      result: deliverWebhookResult,
      ...retriedUntilMaxAge(config.webhooks),
    },
    /**
     * Sends one outbound message (its uid: the jobId) through its channel; transient failures are
     * retried with backoff up to MESSAGE_MAX_AGE_MS, permanent ones end the message in `error`.
     */
    'send-message': {
      queue: 'messages',
      ...standsFor('messages', 'messageUid', 'record'),
      result: sendMessageResult,
      ...retriedUntilMaxAge(config.messaging),
    },
    /** Forgets Idempotency-Key answers past IDEMPOTENCY_TTL_HOURS, in batches of PRUNE_BATCH_ROWS. */
    'prune-idempotency-keys': { queue: 'maintenance', payload: noPayload, result: prunedRows, options: maintenanceOptions, every: config.retention.pruneIntervalMs },
    /** Deletes finished calendar requests past REQUEST_RETENTION_DAYS, in batches of PRUNE_BATCH_ROWS. */
    'prune-finished-requests': { queue: 'maintenance', payload: noPayload, result: prunedRows, options: maintenanceOptions, every: config.retention.pruneIntervalMs },
    /** Deletes settled webhook events and their delivery attempts past WEBHOOK_RETENTION_DAYS. */
    'prune-webhook-events': { queue: 'maintenance', payload: noPayload, result: prunedRows, options: maintenanceOptions, every: config.retention.pruneIntervalMs },
    /** Turns new change-feed positions into webhook events of the subscribed apps and queues their deliveries. */
    'fan-out-webhook-events': { queue: 'maintenance', payload: noPayload, result: z.object({ events: z.number().int() }), options: maintenanceOptions, every: 1000 },
    /** Vacuums the webhook tables every delivery rewrites once enough of them is dead (VACUUM_MIN_DEAD_ROWS, VACUUM_DEAD_FRACTION). */
    'vacuum-busy-tables': { queue: 'maintenance', payload: noPayload, result: z.object({ vacuumed: z.array(z.string()), analyzed: z.array(z.string()) }), options: maintenanceOptions, every: 10_000 },
    /** Deletes change-feed records past CHANGE_RETENTION_DAYS (a cursor below them then answers 410). */
    'prune-changes': { queue: 'maintenance', payload: noPayload, result: prunedRows, options: maintenanceOptions, every: config.retention.pruneIntervalMs },
    /** Drops the Postgres rate-limit windows that have ended (the Redis ones expire by themselves). */
    'prune-rate-limit-windows': { queue: 'maintenance', payload: noPayload, result: prunedRows, options: maintenanceOptions, every: 60_000 },
    /** Pending reservation requests booked more than RESERVATION_REQUEST_HOURS ago become expired (their nights free). */
    'expire-reservation-requests': { queue: 'maintenance', payload: noPayload, result: expiredRows, options: maintenanceOptions, every: 60_000 },
    /** Calendar proposals pending longer than PROPOSAL_TTL_DAYS, or whose dates have all passed, expire (their requests `disabled`). */
    'expire-proposals': { queue: 'maintenance', payload: noPayload, result: expiredRows, options: maintenanceOptions, every: 60_000 },
    /** Finds what waits for owners and managers (issue 42), records a notification per person, makes the daily digests and sends them. */
    'notify-waiting': {
      queue: 'maintenance',
      payload: noPayload,
      result: z.object({ found: z.number().int(), digests: z.number().int(), sent: z.number().int(), failed: z.number().int() }),
      options: maintenanceOptions,
      every: config.notifications.intervalMs,
    },
  } as const satisfies Record<string, JobDefinition<keyof typeof queues>>;

  return { queues, jobs };
}

export type JobRegistry = ReturnType<typeof jobRegistry>;

/**
 * The job that applies a request of each kind (calendar_requests.kind): the request pipeline
 * (shared/platform/requests) queues, and its sweep re-queues, a request under its kind's job.
 */
export const requestJobs = { calendar: 'apply-calendar-request', listing_status: 'apply-listing-status' } as const satisfies Record<RequestKind, JobsOf<'calendar'>>;

/** The durable jobs of the registry (those declaring `durable`), with their queue and declaration. */
export function durableJobs(registry: JobRegistry): { job: DurableJobName; queue: QueueName; durable: Durability }[] {
  return Object.entries(registry.jobs as Record<string, { queue: QueueName; durable?: Durability }>)
    .filter(([, d]) => d.durable !== undefined)
    .map(([job, d]) => ({ job: job as DurableJobName, queue: d.queue, durable: d.durable! }));
}
export type QueueName = keyof JobRegistry['queues'];
export type JobName = keyof JobRegistry['jobs'];
/** The jobs that stand for durable rows. */
export type DurableJobName = { [N in JobName]: JobRegistry['jobs'][N] extends { durable: Durability } ? N : never }[JobName];
export type JobPayload<N extends JobName> = z.infer<JobRegistry['jobs'][N]['payload']>;
export type JobResult<N extends JobName> = z.infer<JobRegistry['jobs'][N]['result']>;
/** The jobs that run on queue Q. */
export type JobsOf<Q extends QueueName> = { [N in JobName]: JobRegistry['jobs'][N]['queue'] extends Q ? N : never }[JobName];

/** The registry's entries as a list, for code that walks every queue or job. */
export function registeredQueues(registry: JobRegistry): Array<{ name: QueueName; concurrency: number }> {
  return (Object.keys(registry.queues) as QueueName[]).map((name) => ({ name, concurrency: registry.queues[name].concurrency }));
}

export function registeredJobs(registry: JobRegistry): Array<{ name: JobName } & JobDefinition<QueueName>> {
  return (Object.keys(registry.jobs) as JobName[]).map((name) => ({ name, ...registry.jobs[name] }));
}
