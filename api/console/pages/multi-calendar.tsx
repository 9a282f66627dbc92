import { Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../../shared/app/context.js';
import type { GridCellRow, GridPropertyRow } from '../../../shared/domain/console/index.js';
import { isRealDate } from '../../../shared/infra/http/wire.js';
import { addDays, datesOf } from '../../../shared/infra/time.js';
import { dateLabel, money, todayIn } from '../format.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Layout } from '../layout.js';
import { render } from '../render.js';
import { ChangeForm } from './calendar-change.js';

/*
 * /app/calendar (issue 41): every property a row, 14 to 31 days as columns (`days`), from `from`
 * (default today), filtered by a part of the name or city (`q`); moved by a week. Each cell shows
 * the price and min stay, who holds the night (arrival, mid-stay, and the departure day told apart),
 * host blocks, today in the property's own zone; each links to the date's provenance. Ticking rows
 * and giving dates changes them together (the change form below: preview, then apply). One
 * statement reads the whole grid.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const gridQuerySchema = z.object({
  from: z
    .string()
    .regex(DATE, 'from must be a date YYYY-MM-DD')
    .refine((d) => isRealDate(...(d.split('-').map(Number) as [number, number, number])), 'from is not a real date')
    .optional(),
  days: z.coerce.number().int().min(14, 'days: from 14 to 31').max(31, 'days: from 14 to 31').default(14),
  q: z.string().trim().max(100, 'the filter is at most 100 characters').default(''),
  done: z.string().optional(),
  requests: z.coerce.number().int().min(0).optional(),
  skipped: z.coerce.number().int().min(0).optional(),
});

export function Cell(props: { c: GridCellRow; p: GridPropertyRow; base: string; labels: ReadonlyMap<string, string> }) {
  const { c, p } = props;
  const cls = [
    'mc',
    c.booking_uid ? (c.arrival ? 'booked arrival' : 'booked') : c.is_available === 0 ? 'blocked' : 'open',
    c.departing_guest ? 'departure' : '',
    c.date === p.today ? 'today' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const who = c.booking_uid ? `${c.arrival ? 'arrives: ' : 'stays: '}${c.guest_name ?? 'guest'}` : c.is_available === 0 ? 'blocked by host' : 'open';
  // What a screen reader hears first; the visible text follows it, so the link's name holds both.
  const label = `${p.name}, ${props.labels.get(c.date) ?? c.date}${c.date === p.today ? ' (today)' : ''}: ${who}${c.departing_guest ? `, leaves: ${c.departing_guest}` : ''}, `;
  return (
    <td class={cls} data-date={c.date} data-property={p.uid}>
      <a href={`/app/properties/${encodeURIComponent(p.uid)}?month=${c.date.slice(0, 7)}&date=${c.date}#provenance`} >
        <span class="sr-only">{label}</span>
        {c.departing_guest && (
          <span class="leaves" aria-hidden="true">
            {c.departing_guest} ⇥
          </span>
        )}
        {c.booking_uid ? <span class="guest" aria-hidden="true">{c.arrival ? `→ ${c.guest_name ?? 'guest'}` : (c.guest_name ?? 'guest')}</span> : c.is_available === 0 ? <span class="blk">Blocked</span> : null}
        <span class="price">
          {money(c.price, c.currency)} · min {c.min_stay}
        </span>
      </a>
    </td>
  );
}

export function multiCalendarRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/calendar', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const parsed = gridQuerySchema.safeParse(req.query);
    const error = parsed.success ? undefined : parsed.error.issues[0]!.message;
    const q = parsed.success ? parsed.data : gridQuerySchema.parse({});
    const from = q.from ?? todayIn('UTC');
    const to = addDays(from, q.days - 1);
    const grid = await ctx.services.calendarChange.grid(user.companyUid, { from, to, search: q.q });
    const dates = datesOf(from, to);
    // Each date's words once per column, not once per cell (toLocaleDateString builds a formatter each call).
    const labels = new Map(dates.map((d) => [d, dateLabel(d)]));
    const byProperty = new Map<string, GridCellRow[]>();
    for (const c of grid.cells) byProperty.set(c.property_uid, [...(byProperty.get(c.property_uid) ?? []), c]);
    const link = (f: string) => `/app/calendar?from=${f}&days=${q.days}${q.q ? `&q=${encodeURIComponent(q.q)}` : ''}`;
    const pctx = pageContext(req, res);
    await render(
      res,
      <Layout ctx={pctx} title="Multi-calendar">
        <h1>Multi-calendar</h1>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        {q.done === 'change' && (
          <p class="notice" role="status">
            The change is queued as {q.requests ?? 0} requests{q.skipped ? `, ${q.skipped} dates skipped` : ''}: it applies in a moment (see <a href="/app/requests">Requests</a>).
          </p>
        )}
        <form method="get" action="/app/calendar" class="grid-filter">
          <label>
            From <input type="date" name="from" value={from} />
          </label>
          <label>
            Days
            <select name="days">
              {[14, 21, 28, 31].map((n) => (
                <option value={String(n)} selected={n === q.days}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <label>
            City or name <input name="q" value={q.q} />
          </label>
          <button type="submit">Show</button>
        </form>
        <nav class="weeks" aria-label="Weeks">
          <a href={link(addDays(from, -7))} rel="prev">
            ← week before
          </a>
          <a href={link(todayIn('UTC'))}>today</a>
          <a href={link(addDays(from, 7))} rel="next">
            week after →
          </a>
        </nav>
        <p class="legend muted">
          <span class="key arrival">→ arrives</span> <span class="key booked">stays</span> <span class="key departure">⇥ leaves</span> <span class="key blocked">blocked by host</span>{' '}
          <span class="key today">today (each property's zone)</span>. Tick properties, then give dates below to change them together.
        </p>
        {grid.properties.length === 0 ? (
          <p>No property matches.</p>
        ) : (
          <div class="grid-wrap" role="region" aria-label="Calendar of every property" tabindex={0}>
            <table class="multi">
              <thead>
                <tr>
                  <th scope="col">Property</th>
                  {dates.map((d) => (
                    <th scope="col">{labels.get(d)}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {grid.properties.map((p) => (
                  <tr data-property={p.uid}>
                    <th scope="row">
                      <label class="check">
                        <input type="checkbox" name="property_uids" value={p.uid} form="change-form" /> {p.name}
                      </label>
                      <span class="muted"> {p.city ?? ''}</span>
                    </th>
                    {(byProperty.get(p.uid) ?? []).map((c) => (
                      <Cell c={c} p={p} base={`/app/properties/${encodeURIComponent(p.uid)}`} labels={labels} />
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <ChangeForm f={{ from, to: addDays(from, 1) }} properties={[]} id="change" formId="change-form" title="Change the ticked properties" />
      </Layout>,
      error ? 400 : 200,
    );
  });
  return router;
}
