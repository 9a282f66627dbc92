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

  const httpRequests = new Counter({
    name: 'pops_http_requests_total',
    help: 'HTTP requests answered, by route template (unmatched for unknown paths), method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
  });

  const httpRequestDuration = new Histogram({
    name: 'pops_http_request_duration_seconds',
    help: 'Time from the request arriving to the answer sent, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });

  const calendarDaysAccepted = new Counter({
    name: 'pops_calendar_days_accepted_total',
    help: 'Calendar days stored on requests by POST /set-calendar-batch (after merging duplicates and skipping)',
    registers,
  });

  const calendarDaysSkipped = new Counter({
    name: 'pops_calendar_days_skipped_total',
    help: 'Calendar days skipped with a warning: past (at accept or apply time), invalid (a value of the wrong type or range), no_currency, nothing (to change)',
    labelNames: ['reason'] as const,
    registers,
  });

  const calendarDaysApplied = new Counter({
    name: 'pops_calendar_days_applied_total',
    help: 'Calendar days written by workers',
    registers,
  });

  const calendarRequestsFinished = new Counter({
    name: 'pops_calendar_requests_finished_total',
    help: 'Calendar requests that reached a final status, by that status',
    labelNames: ['status'] as const,
    registers,
  });

  const calendarRequestsReenqueued = new Counter({
    name: 'pops_calendar_requests_reenqueued_total',
    help: 'Calendar requests the re-enqueuer found without a live job and queued again',
    registers,
  });

  const jobDuration = new Histogram({
    name: 'pops_job_duration_seconds',
    help: 'Time a worker spent on one job attempt, by job name and outcome (completed, failed)',
    labelNames: ['job', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });

  const queueJobs = new Gauge({
    name: 'pops_queue_jobs',
    help: 'Jobs in the queue by state, read from the queue at scrape time',
    labelNames: ['queue', 'state'] as const,
    registers,
  });

  const queueUp = new Gauge({
    name: 'pops_queue_up',
    help: '1 when the queue answered the last scrape within HEALTH_TIMEOUT_MS, else 0 (pops_queue_jobs then keeps its last values)',
    labelNames: ['queue'] as const,
    registers,
  });

  const queueEnqueueFailing = new Gauge({
    name: 'pops_queue_enqueue_failing',
    help: '1 while the last attempt of this process to add jobs failed (a Redis that is full answers reads but refuses writes), else 0',
    labelNames: ['queue'] as const,
    registers,
  });

  const longPollWaiters = new Gauge({
    name: 'pops_long_poll_waiters',
    help: 'get-request-status calls holding their answer (wait=N) in this process',
    registers,
  });

  // Series that exist from the first scrape, so rate() and alerts see a 0 rather than nothing.
  for (const reason of skipReasons) calendarDaysSkipped.labels(reason).inc(0);
  for (const status of ['completed', 'error']) calendarRequestsFinished.labels(status).inc(0);

  return { registry, httpRequests, httpRequestDuration, calendarDaysAccepted, calendarDaysSkipped, calendarDaysApplied, calendarRequestsFinished, calendarRequestsReenqueued, jobDuration, queueJobs, queueUp, queueEnqueueFailing, longPollWaiters };
}

export type Metrics = ReturnType<typeof createMetrics>;
