import { Router } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import { setCalendarBatchBodySchema } from '../../../shared/domain/calendar/index.js';
import { badParam } from '../../../shared/infra/errors.js';
import { requireUser, userOf } from '../guard.js';

/*
 * The one-date post of a property's month (issue 35: the stay restrictions "shown and edited in the
 * console"): the date's fields sent as one batch day through the calendar's one submission path.
 * The month page's form is now the calendar change (calendar-change.tsx: a date or a range, with a
 * preview); this post stays for a form already open in a browser. A field left empty (or "keep")
 * is not sent, so it stays as it is; the request is named after the signed-in user.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const KEEP = 'keep';

const FIELDS = ['price', 'currency', 'is_available', 'min_stay', 'notes', 'max_stay', 'closed_to_arrival', 'closed_to_departure'] as const;

/** The form as a batch day: a field empty or "keep" is absent (kept). */
export function dayOfForm(form: Record<string, unknown>): { date: string } & Record<string, string> {
  const date = typeof form.date === 'string' && DATE.test(form.date) ? form.date : undefined;
  if (!date) throw badParam('date', 'date must be YYYY-MM-DD');
  const day: { date: string } & Record<string, string> = { date };
  for (const f of FIELDS) {
    const v = form[f];
    if (typeof v === 'string' && v.trim() !== '' && v !== KEEP) day[f] = v.trim();
  }
  return day;
}

export function dayEditorRoutes(ctx: AppContext): Router {
  const router = Router();
  router.post('/properties/:uid/days', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const uid = String(req.params.uid);
    const form = req.body as Record<string, unknown>;
    const day = dayOfForm(form);
    const body = setCalendarBatchBodySchema(ctx.config.calendar.maxDays).parse({ property_uid: uid, days: [day] });
    const answer = await ctx.services.calendar.submitBatch(user.companyUid, body, { tokenUid: `console:${user.uid}`, userUid: user.uid });
    const warning = answer.data.warnings[day.date];
    ctx.logger.info({ propertyUid: uid, date: day.date, userUid: user.uid, requestUids: answer.data.request_uids, warning }, 'calendar day changed in the console');
    const month = typeof form.month === 'string' && /^\d{4}-\d{2}$/.test(form.month) ? form.month : day.date.slice(0, 7);
    const outcome = warning ? `&warning=${encodeURIComponent(warning)}` : '&done=day';
    res.redirect(303, `/app/properties/${encodeURIComponent(uid)}?month=${month}&date=${day.date}${outcome}#day-editor`);
  });
  return router;
}
