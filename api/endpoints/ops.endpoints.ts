import { z } from 'zod';
import { AppError, ErrorCode } from '../../shared/infra/errors.js';
import { liveness, livenessSchema, readinessSchema, type Readiness } from '../../shared/infra/health/health.schema.js';
import { checkReadiness } from '../../shared/infra/health/readiness.js';
import { renderMetrics } from '../../shared/infra/metrics/queue-metrics.js';
import { withTimeout } from '../../shared/infra/timeout.js';
import { renderDocsPage } from '../openapi/docs-page.js';
import type { OpenApi } from '../openapi/openapi.types.js';
import { named } from '../openapi/extend-zod.js';
import { defineEndpoint, RawAnswer } from './define.js';

/* The operations endpoints: no token, no rate limit. */

const metricsExample = [
  '# HELP pops_http_requests_total HTTP requests answered, by route template (unmatched for unknown paths), method and status',
  '# TYPE pops_http_requests_total counter',
  'pops_http_requests_total{route="/api/v1/bookings",method="GET",status="200"} 42',
  '# HELP pops_queue_jobs Jobs in the queue by state, read from the queue at scrape time',
  '# TYPE pops_queue_jobs gauge',
  'pops_queue_jobs{queue="calendar",state="waiting"} 3',
  '',
].join('\n');

export const livez = defineEndpoint({
  method: 'get',
  path: '/livez',
  scopes: 'public',
  operationId: 'livez',
  tag: 'Operations',
  summary: 'Liveness: the process is up',
  description: 'Touches nothing (no database, no queue): a failing answer means the process should be restarted.',
  answer: { description: 'The process is up', schema: named('Liveness', livenessSchema), example: liveness },
  handle: () => liveness,
});

export const readyz = defineEndpoint({
  method: 'get',
  path: '/readyz',
  scopes: 'public',
  operationId: 'readyz',
  tag: 'Operations',
  summary: 'Readiness: Postgres and the queue answer',
  description:
    'Runs `select 1` on Postgres and reads a job count from the queue, in parallel, each bounded by HEALTH_TIMEOUT_MS ' +
    '(default 1500 ms). 503 (code 15) while either fails, and from the moment the process starts shutting down, so ' +
    'a load balancer stops sending traffic before the listener closes. While the queue answers reads but refuses new ' +
    'jobs (a full Redis answering OOM), the answer is still 200 with status and checks.queue "degraded", and the gauge ' +
    'pops_queue_enqueue_failing is 1: accepted batches are stored in Postgres and queued by the re-enqueuer once the ' +
    'queue takes writes, so taking every API process out of service would only stop reads.',
  answer: {
    description: 'Ready for traffic',
    schema: named('Readiness', readinessSchema),
    example: { data: { status: 'ready', checks: { postgres: 'ok', queue: 'ok' } } },
  },
  errors: [503],
  errorTexts: {
    503: {
      description: 'Code 15: not ready; details name each failing dependency (timeout or unreachable) or the shutdown',
      example: { error: { code: 15, message: 'Not ready: queue', details: [{ path: 'queue', message: 'timeout' }] } },
    },
  },
  async handle(ctx, { runtime }): Promise<Readiness> {
    if (runtime.lifecycle.isDraining()) {
      throw new AppError(ErrorCode.unavailable, 'Not ready: shutting down', { details: [{ path: 'process', message: 'shutting down' }] });
    }
    const report = await checkReadiness(ctx);
    if (!report.ready) {
      const failing = Object.entries(report.checks).filter(([, v]) => v !== 'ok');
      throw new AppError(ErrorCode.unavailable, `Not ready: ${failing.map(([k]) => k).join(', ')}`, {
        details: failing.map(([path, message]) => ({ path, message })),
      });
    }
    const queue = report.checks.queue === 'degraded' ? 'degraded' : 'ok';
    return { data: { status: queue === 'ok' ? 'ready' : 'degraded', checks: { postgres: 'ok', queue } } };
  },
});

export const metrics = defineEndpoint({
  method: 'get',
  path: '/metrics',
  scopes: 'public',
  operationId: 'metrics',
  tag: 'Operations',
  summary: 'Prometheus metrics of this process',
  description:
    'Prometheus text format (prom-client). pops_http_requests_total and pops_http_request_duration_seconds by route ' +
    'template, method, status; pops_calendar_days_accepted_total, pops_calendar_days_applied_total, ' +
    'pops_calendar_days_skipped_total{reason=past|no_currency|nothing}, pops_calendar_requests_finished_total{status}, ' +
    'pops_calendar_requests_reenqueued_total, pops_calendar_requests_waiting (stored, not yet started: the calendar pumps\' ' +
      'backlog, read from Postgres at scrape time), pops_job_duration_seconds{job,outcome}, pops_queue_jobs{queue,state} ' +
    '(waiting, active, delayed, failed; read at scrape time, bounded by HEALTH_TIMEOUT_MS) and pops_queue_up, plus the ' +
    'Node.js process metrics. Worker processes serve the same on their own METRICS_PORT.',
  answer: { description: 'The metrics', schema: z.string(), contentType: 'text/plain; version=0.0.4; charset=utf-8', example: metricsExample },
  async handle(ctx) {
    // The pumps' backlog is in no queue: read from Postgres, bounded like the queue's counts (a scrape answers regardless).
    await withTimeout(ctx.services.requests.waiting(), ctx.config.healthTimeoutMs, 'requests waiting').then(
      (n) => ctx.metrics.calendarRequestsWaiting.set(n),
      () => {},
    );
    const { contentType, body } = await renderMetrics(ctx.metrics, [ctx.jobs.calendar.queue, ctx.jobs.webhooks.queue], ctx.config.healthTimeoutMs, {
      queue: ctx.jobs.calendar.queue.name,
      failing: () => ctx.jobs.calendar.enqueueFailing(),
    });
    return new RawAnswer(contentType, body);
  },
});

/** The document and its page, rendered once per document (once per process). */
const rendered = new WeakMap<OpenApi, { json: string; page: string }>();
function renderedOf(openapi: OpenApi) {
  let r = rendered.get(openapi);
  if (!r) {
    r = { json: JSON.stringify(openapi.document), page: renderDocsPage(openapi.document) };
    rendered.set(openapi, r);
  }
  return r;
}

export const openapiJson = defineEndpoint({
  method: 'get',
  path: '/openapi.json',
  scopes: 'public',
  operationId: 'openapi',
  tag: 'Operations',
  summary: 'This document',
  description: 'OpenAPI 3.1, generated at start from the zod schemas that validate the requests and shape the answers.',
  answer: { description: 'The OpenAPI document', schema: z.record(z.string(), z.unknown()) },
  handle: (_ctx, { runtime }) => new RawAnswer('application/json', renderedOf(runtime.openapi).json),
});

export const docs = defineEndpoint({
  method: 'get',
  path: '/docs',
  scopes: 'public',
  operationId: 'docs',
  tag: 'Operations',
  summary: 'This document as a web page',
  description: 'A self-contained HTML rendering of /openapi.json (no script, nothing loaded from elsewhere).',
  answer: { description: 'The page', schema: z.string(), contentType: 'text/html; charset=utf-8' },
  // The page has no script at all; say so to the browser too.
  handle: (_ctx, { runtime }) =>
    new RawAnswer('html', renderedOf(runtime.openapi).page, {
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:",
    }),
});
