import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/*
 * The Prometheus metrics of one runtime (shared/app/runtime.ts makes them, once per process in
 * production, as Prometheus expects; each test runtime has its own): `npm start` (API and worker on
 * one runtime) answers both on the API's GET /metrics; a worker process serves its own on
 * METRICS_PORT. Nothing reaches them through a module: they are `ctx.metrics`.
 *
 * Every label takes values from a closed set (route templates, HTTP methods and statuses, job
 * names, skip reasons, queue states): never a property, request or booking id.
 */
export const skipReasons = ['past', 'invalid', 'no_currency', 'nothing'] as const;
export type SkipReason = (typeof skipReasons)[number];
export const queueStates = ['waiting', 'active', 'delayed', 'failed'] as const;

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const counter = <L extends string = string>(name: string, help: string, labelNames: readonly L[] = []) => new Counter<L>({ name, help, labelNames, registers });
  const gauge = <L extends string = string>(name: string, help: string, labelNames: readonly L[] = []) => new Gauge<L>({ name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) => new Histogram<L>({ name, help, labelNames, buckets, registers });
  const secondsBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

  const httpRequests = counter('pops_http_requests_total', 'HTTP requests answered, by route template (unmatched for unknown paths), method and status', ['route', 'method', 'status']);
  const httpRequestDuration = histogram(
    'pops_http_request_duration_seconds',
    'Time from the request arriving to the answer sent, by route template, method and status',
    ['route', 'method', 'status'],
    secondsBuckets,
  );
  const calendarDaysAccepted = counter('pops_calendar_days_accepted_total', 'Calendar days stored on requests by POST /set-calendar-batch (after merging duplicates and skipping)');
  const calendarDaysSkipped = counter(
    'pops_calendar_days_skipped_total',
    'Calendar days skipped with a warning: past (at accept or apply time), invalid (a value of the wrong type or range), no_currency, nothing (to change)',
    ['reason'],
  );
  const calendarDaysApplied = counter('pops_calendar_days_applied_total', 'Calendar days written by workers');
  const calendarRequestsFinished = counter('pops_calendar_requests_finished_total', 'Calendar requests that reached a final status, by that status', ['status']);
  const calendarRequestsReenqueued = counter('pops_calendar_requests_reenqueued_total', 'Calendar requests the re-enqueuer found without a live job and queued again');
  const jobDuration = histogram('pops_job_duration_seconds', 'Time a worker spent on one job attempt, by job name and outcome (completed, failed)', ['job', 'outcome'], [...secondsBuckets, 30]);
  const queueJobs = gauge('pops_queue_jobs', 'Jobs in the queue by state, read from the queue at scrape time', ['queue', 'state']);
  const queueUp = gauge(
    'pops_queue_up',
    '1 when the queue answered the last scrape within HEALTH_TIMEOUT_MS, else 0 (pops_queue_jobs then keeps its last values)',
    ['queue'],
  );
  const queueEnqueueFailing = gauge(
    'pops_queue_enqueue_failing',
    '1 while the last attempt of this process to add jobs failed (a Redis that is full answers reads but refuses writes), else 0',
    ['queue'],
  );
  const calendarRequestsWaiting = gauge(
    'pops_calendar_requests_waiting',
    'Calendar requests stored and not yet started, read from Postgres at scrape time (the calendar pumps\' backlog: a batch a pump takes waits in no queue)',
  );
  const longPollWaiters = gauge('pops_long_poll_waiters', 'get-request-status calls holding their answer (wait=N) in this process');

  // Series that exist from the first scrape, so rate() and alerts see a 0 rather than nothing.
  for (const reason of skipReasons) calendarDaysSkipped.labels(reason).inc(0);
  for (const status of ['completed', 'error']) calendarRequestsFinished.labels(status).inc(0);

  return { registry, httpRequests, httpRequestDuration, calendarDaysAccepted, calendarDaysSkipped, calendarDaysApplied, calendarRequestsFinished, calendarRequestsReenqueued, jobDuration, queueJobs, queueUp, queueEnqueueFailing, calendarRequestsWaiting, longPollWaiters };
}

export type Metrics = ReturnType<typeof createMetrics>;
