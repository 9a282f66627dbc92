import type { Request, RequestHandler } from 'express';
import type { Metrics } from '../../shared/infra/metrics/metrics.js';

/**
 * The label of every answer of a route: its documented path (the endpoint router sets it per
 * definition), or one label for everything under a mount whose inner routes are not ours (the dashboard).
 */
export function routeLabelled(label: string): RequestHandler {
  return (_req, res, next) => {
    res.locals.routeLabel = label;
    next();
  };
}

/**
 * The route label of a request: the template of the route that answered (`/api/v1/bookings`), or,
 * for an answer given before routing (a body too large), the known path it was sent to; anything
 * else is `unmatched`. So label values are a closed set whatever clients send.
 */
function routeLabel(req: Request, locals: Record<string, unknown>, knownPaths: ReadonlySet<string>): string {
  if (typeof locals.routeLabel === 'string') return locals.routeLabel;
  const route = (req as { route?: { path?: unknown } }).route;
  if (route && typeof route.path === 'string') return route.path;
  const path = req.path.toLowerCase().replace(/\/+$/, '');
  return knownPaths.has(path) ? path : 'unmatched';
}

/** Counts every answer and its latency by route template, method and status. */
export function httpMetrics({ httpRequests, httpRequestDuration }: Metrics, knownPaths: ReadonlySet<string>): RequestHandler {
  return (req, res, next) => {
    const end = httpRequestDuration.startTimer();
    res.once('finish', () => {
      const labels = { route: routeLabel(req, res.locals, knownPaths), method: req.method, status: String(res.statusCode) };
      httpRequests.inc(labels);
      end(labels);
    });
    next();
  };
}
