import express, { type Express, type Router } from 'express';
import type { AppContext } from '../shared/context.js';
import { errorHandler, notFoundHandler } from './middleware/errors.js';
import { bookingsRoutes } from './routes/bookings.routes.js';
import { calendarRoutes } from './routes/calendar.routes.js';
import { tasksRoutes } from './routes/tasks.routes.js';

/** Routers mounted under /api/v1; each file owns one domain noun and guards its own routes. */
const apiRouters: Array<(ctx: AppContext) => Router> = [bookingsRoutes, calendarRoutes, tasksRoutes];

export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Clients of the iGMS API do not all send a JSON content type; every body is read as JSON.
  app.use(express.json({ limit: ctx.config.http.bodyLimitBytes, type: () => true, strict: false }));

  const v1 = express.Router();
  for (const make of apiRouters) v1.use(make(ctx));
  app.use('/api/v1', v1);

  app.use(notFoundHandler);
  app.use(errorHandler(ctx.logger));
  return app;
}
