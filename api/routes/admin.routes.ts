import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Router } from 'express';
import type { AppContext } from '../../shared/context.js';
import { requireAdminToken } from '../middleware/admin-auth.js';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/**
 * The queue dashboard (bull-board), to mount at QUEUE_DASHBOARD_PATH, behind ADMIN_TOKEN. Without
 * ADMIN_TOKEN there is none: the path is a 404 like any unknown one. It reads the same queue
 * whether BullMQ runs on Redis or on its Postgres backend. Not an endpoint definition: it is a
 * third-party router of many pages and its own assets, outside the API contract and the document.
 */
export function adminRoutes(ctx: AppContext): Router | undefined {
  const token = ctx.config.adminToken;
  if (!token) return undefined;
  const board = new ExpressAdapter();
  board.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: [new BullMQAdapter(ctx.calendarJobs.queue)],
    serverAdapter: board,
    options: { uiConfig: { boardTitle: 'property-ops' } },
  });
  const router = Router();
  // @bull-board/express 9.10.1 declares getRouter(): any; it is an Express router.
  router.use(requireAdminToken(token), board.getRouter() as Router);
  return router;
}
