import { Router } from 'express';
import type { AppContext } from '../../shared/context.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { liveness, type Readiness } from '../../shared/health/health.schema.js';
import { checkReadiness } from '../../shared/health/readiness.js';
import { renderMetrics } from '../../shared/metrics/queue-metrics.js';
import type { OpenApi } from '../openapi/document.js';
import { renderDocsPage } from '../openapi/docs-page.js';

export interface Lifecycle {
  /** True from the moment the process starts shutting down: /readyz then answers 503. */
  isDraining(): boolean;
}

/** The operations endpoints: no token, no rate limit. */
export function opsRoutes(ctx: AppContext, openapi: OpenApi, lifecycle: Lifecycle): Router {
  const router = Router();
  const openapiJson = JSON.stringify(openapi.document);
  const docsPage = renderDocsPage(openapi.document);

  router.get('/livez', (_req, res) => {
    res.json(liveness);
  });

  router.get('/readyz', async (_req, res) => {
    if (lifecycle.isDraining()) {
      throw new AppError(ErrorCode.unavailable, 'Not ready: shutting down', { details: [{ path: 'process', message: 'shutting down' }] });
    }
    const report = await checkReadiness(ctx);
    if (!report.ready) {
      const failing = Object.entries(report.checks).filter(([, v]) => v !== 'ok');
      throw new AppError(ErrorCode.unavailable, `Not ready: ${failing.map(([k]) => k).join(', ')}`, {
        details: failing.map(([path, message]) => ({ path, message })),
      });
    }
    const body: Readiness = { data: { status: 'ready', checks: { postgres: 'ok', queue: 'ok' } } };
    res.json(body);
  });

  router.get('/metrics', async (_req, res) => {
    const { contentType, body } = await renderMetrics([ctx.calendarJobs.queue], ctx.config.healthTimeoutMs);
    res.setHeader('Content-Type', contentType);
    res.send(body);
  });

  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(openapiJson);
  });

  router.get('/docs', (_req, res) => {
    // The page has no script at all; say so to the browser too.
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:");
    res.type('html').send(docsPage);
  });
  return router;
}
