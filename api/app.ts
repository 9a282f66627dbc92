import express, { type Express, type Router } from 'express';
import type { AppContext } from '../shared/context.js';
import { errorHandler, notFoundHandler } from './middleware/errors.js';
import { httpMetrics, routeBase, routeLabelled } from './middleware/http-metrics.js';
import { requestLogging } from './middleware/request-log.js';
import { buildOpenApi } from './openapi/document.js';
import { adminRoutes, QUEUE_DASHBOARD_PATH } from './routes/admin.routes.js';
import { bookingsRoutes } from './routes/bookings.routes.js';
import { calendarRoutes } from './routes/calendar.routes.js';
import { opsRoutes, type Lifecycle } from './routes/ops.routes.js';
import { tasksRoutes } from './routes/tasks.routes.js';

/** Routers mounted under /api/v1; each file owns one domain noun and guards its own routes. */
export const apiRouters: Array<(ctx: AppContext) => Router> = [bookingsRoutes, calendarRoutes, tasksRoutes];

export interface AppOptions {
  lifecycle?: Lifecycle;
}

export function createApp(ctx: AppContext, opts: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const openapi = buildOpenApi(ctx.config);

  // First, so that every answer (even a body parse failure) is logged, counted and has a request id.
  app.use(requestLogging(ctx.logger));
  app.use(httpMetrics(new Set([...openapi.paths, QUEUE_DASHBOARD_PATH])));

  // Clients of the iGMS API do not all send a JSON content type; every body is read as JSON.
  app.use(express.json({ limit: ctx.config.http.bodyLimitBytes, type: () => true, strict: false }));

  app.use(opsRoutes(ctx, openapi, opts.lifecycle ?? { isDraining: () => false }));
  const admin = adminRoutes(ctx);
  if (admin) app.use(QUEUE_DASHBOARD_PATH, routeLabelled(QUEUE_DASHBOARD_PATH), admin);

  const v1 = express.Router();
  for (const make of apiRouters) v1.use(make(ctx));
  app.use('/api/v1', routeBase('/api/v1'), v1);

  app.use(notFoundHandler);
  app.use(errorHandler(ctx.logger));
  return app;
}
