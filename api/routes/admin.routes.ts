import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Router, type Express } from 'express';
import type { AppContext } from '../../shared/app/context.js';
import { requireAdminToken } from '../middleware/admin-auth.js';
import { noFraming, sameOriginWrites } from '../middleware/same-origin.js';

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
    queues: [new BullMQAdapter(ctx.jobs.calendar.queue), new BullMQAdapter(ctx.jobs.webhooks.queue)],
    serverAdapter: board,
    options: { uiConfig: { boardTitle: 'property-ops' } },
  });
  // The adapter's router is an Express app of its own, which would announce itself again.
  const ui = board.getRouter() as Express;
  ui.disable('x-powered-by');
  const router = Router();
  // The frame headers go on the 401 too; the write checks come after the token (they say nothing).
  router.use(noFraming, requireAdminToken(ctx, token), sameOriginWrites(), ui as unknown as Router);
  return router;
}
