import { registerSchema } from './extend-zod.js';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { livenessSchema, readinessSchema } from '../../shared/health/health.schema.js';
import { errorResponses, jsonContent, plainHeaders, type ErrorSchemas } from './common.openapi.js';

export const metricsExample = [
  '# HELP pops_http_requests_total HTTP requests answered, by route template (unmatched for unknown paths), method and status',
  '# TYPE pops_http_requests_total counter',
  'pops_http_requests_total{route="/api/v1/bookings",method="GET",status="200"} 42',
  '# HELP pops_queue_jobs Jobs in the queue by state, read from the queue at scrape time',
  '# TYPE pops_queue_jobs gauge',
  'pops_queue_jobs{queue="calendar",state="waiting"} 3',
  '',
].join('\n');

export function registerOpsPaths(registry: OpenAPIRegistry, errors: ErrorSchemas) {
  const common = { tags: ['Operations'], security: [] };

  registry.registerPath({
    ...common,
    method: 'get',
    path: '/livez',
    operationId: 'livez',
    summary: 'Liveness: the process is up',
    description: 'Touches nothing (no database, no queue): a failing answer means the process should be restarted.',
    responses: {
      200: { description: 'The process is up', headers: plainHeaders, content: jsonContent(registerSchema(registry, 'Liveness', livenessSchema), { data: { status: 'live' } }) },
    },
  });

  registry.registerPath({
    ...common,
    method: 'get',
    path: '/readyz',
    operationId: 'readyz',
    summary: 'Readiness: Postgres and the queue answer',
    description:
      'Runs `select 1` on Postgres and reads a job count from the queue, in parallel, each bounded by HEALTH_TIMEOUT_MS ' +
      '(default 1500 ms). 503 (code 15) while either fails, and from the moment the process starts shutting down, so ' +
      'a load balancer stops sending traffic before the listener closes.',
    responses: {
      200: {
        description: 'Ready for traffic',
        headers: plainHeaders,
        content: jsonContent(registerSchema(registry, 'Readiness', readinessSchema), { data: { status: 'ready', checks: { postgres: 'ok', queue: 'ok' } } }),
      },
      ...errorResponses(errors, [503], {
        503: {
          description: 'Code 15: not ready; details name each failing dependency (timeout or unreachable) or the shutdown',
          example: { error: { code: 15, message: 'Not ready: queue', details: [{ path: 'queue', message: 'timeout' }] } },
        },
      }),
    },
  });

  registry.registerPath({
    ...common,
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics of this process',
    description:
      'Prometheus text format (prom-client). pops_http_requests_total and pops_http_request_duration_seconds by route ' +
      'template, method, status; pops_calendar_days_accepted_total, pops_calendar_days_applied_total, ' +
      'pops_calendar_days_skipped_total{reason=past|no_currency|nothing}, pops_calendar_requests_finished_total{status}, ' +
      'pops_calendar_requests_reenqueued_total, pops_job_duration_seconds{job,outcome}, pops_queue_jobs{queue,state} ' +
      '(waiting, active, delayed, failed; read at scrape time, bounded by HEALTH_TIMEOUT_MS) and pops_queue_up, plus the ' +
      'Node.js process metrics. Worker processes serve the same on their own METRICS_PORT.',
    responses: {
      200: { description: 'The metrics', headers: plainHeaders, content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: z.string(), example: metricsExample } } },
    },
  });

  registry.registerPath({
    ...common,
    method: 'get',
    path: '/openapi.json',
    operationId: 'openapi',
    summary: 'This document',
    description: 'OpenAPI 3.1, generated at start from the zod schemas that validate the requests and shape the answers.',
    responses: { 200: { description: 'The OpenAPI document', headers: plainHeaders, content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } } },
  });

  registry.registerPath({
    ...common,
    method: 'get',
    path: '/docs',
    operationId: 'docs',
    summary: 'This document as a web page',
    description: 'A self-contained HTML rendering of /openapi.json (no script, nothing loaded from elsewhere).',
    responses: { 200: { description: 'The page', headers: plainHeaders, content: { 'text/html; charset=utf-8': { schema: z.string() } } } },
  });
}
