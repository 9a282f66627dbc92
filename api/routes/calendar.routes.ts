import { Router } from 'express';
import {
  calendarDataQuerySchema,
  requestStatusQuerySchema,
  setCalendarBatchBodySchema,
} from '../../shared/calendar/calendar.schema.js';
import { acceptCalendarBatch, getCalendarData, getRequestStatuses } from '../../shared/calendar/calendar.service.js';
import type { AppContext } from '../../shared/context.js';
import { badParam } from '../../shared/errors.js';
import { parseInput } from '../../shared/http/validation.js';
import { principalOf } from '../middleware/auth.js';
import { guard } from '../middleware/guard.js';

const MAX_RANGE_DAYS = 366;

export function calendarRoutes(ctx: AppContext): Router {
  const router = Router();
  const batchBody = setCalendarBatchBodySchema(ctx.config.calendar.maxDays);
  // Read at call time: the queue client may be replaced while the process runs (tests, reconnects).
  const deps = () => ({ db: ctx.database.db, calendarJobs: ctx.calendarJobs, config: ctx.config, logger: ctx.logger });

  router.post('/set-calendar-batch', ...guard(ctx, 'calendar-control'), async (req, res) => {
    const body = parseInput(batchBody, req.body);
    const key = req.get('idempotency-key');
    if (key !== undefined && (key.length === 0 || key.length > 255)) {
      throw badParam('Idempotency-Key', 'Idempotency-Key must be 1 to 255 characters');
    }
    const principal = principalOf(res);
    res.json(await acceptCalendarBatch(deps(), principal, body, key !== undefined ? { key, rawBody: req.body } : undefined));
  });

  router.get('/get-request-status', ...guard(ctx, 'calendar-control', 'listings'), async (req, res) => {
    const q = parseInput(requestStatusQuerySchema, req.query);
    const { companyUid } = principalOf(res);
    const statusDeps = { db: ctx.database.db, isPaused: () => ctx.calendarJobs.isPaused() };
    if (q.request_uid !== undefined) {
      const [one] = await getRequestStatuses(statusDeps, companyUid, [q.request_uid], 'request_uid');
      res.json({ data: one });
    } else {
      res.json({ data: await getRequestStatuses(statusDeps, companyUid, q.request_uids ?? [], 'request_uids') });
    }
  });

  router.get(
    '/get-calendar-data',
    ...guard(ctx, 'calendar-control', 'direct-bookings', 'pricing-management', 'external-cleaning-management', 'availability-control'),
    async (req, res) => {
      const q = parseInput(calendarDataQuerySchema, req.query);
      if (q.to_date < q.from_date) throw badParam('to_date', 'to_date must not be before from_date');
      const days = (Date.parse(q.to_date) - Date.parse(q.from_date)) / 86_400_000 + 1;
      if (days > MAX_RANGE_DAYS) throw badParam('to_date', `The range may cover at most ${MAX_RANGE_DAYS} days`);
      const { companyUid } = principalOf(res);
      res.json({ data: await getCalendarData(ctx.database.db, companyUid, q.property_uid, q.from_date, q.to_date) });
    },
  );
  return router;
}
