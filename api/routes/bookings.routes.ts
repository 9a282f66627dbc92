import { Router } from 'express';
import { bookingsQuerySchema } from '../../shared/bookings/bookings.schema.js';
import { getBookingsPage } from '../../shared/bookings/bookings.service.js';
import type { AppContext } from '../../shared/context.js';
import { parseInput } from '../../shared/http/validation.js';
import { principalOf } from '../middleware/auth.js';
import { guard } from '../middleware/guard.js';

export function bookingsRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get(
    '/bookings',
    ...guard(ctx, 'messaging', 'pricing-management', 'smart-locks', 'external-cleaning-management'),
    async (req, res) => {
      const query = parseInput(bookingsQuerySchema, req.query);
      const { companyUid, scopes } = principalOf(res);
      res.json(await getBookingsPage(ctx.database.db, companyUid, scopes, query));
    },
  );
  return router;
}
