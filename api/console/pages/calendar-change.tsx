import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../../shared/app/context.js';
import { calendarChangeSchema, type CalendarChange, type PreviewDate, type PropertyPreview } from '../../../shared/domain/console/index.js';
import { AppError } from '../../../shared/infra/errors.js';
import { dateLabel, money, percentChange } from '../format.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Form, Layout, type PageContext } from '../layout.js';
import { render } from '../render.js';
import { ColumnHeads } from '../table.js';

/*
 * /app/calendar/change (issue 41 "Change the calendar"): a date or a range of one or several
 * properties, optionally only some weekdays, and the fields to set. GET shows the form and, once it
 * parses, the dry run's preview (nothing stored): per date now -> after, the warnings, booked nights
 * with their guest, price moves beyond +/-30% marked. "Apply" POSTs the same fields: the change goes
 * through the API's submission path as requests named after the signed-in user.
 */

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
/** The property choice that stands for every property of the company (Today's form). */
export const ALL_PROPERTIES = 'all';
const CSRF = '_csrf';

/** The form's fields as given (strings), to fill the form again and to carry into Apply. */
export type ChangeFields = Record<string, string | string[] | undefined>;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const strs = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : []);

export function choose(name: string, label: string, value: string | undefined, options: Array<[string, string]>) {
  return (
    <label>
      {label}
      <select name={name}>
        {options.map(([v, text]) => (
          <option value={v} selected={value === v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The change form (a GET: previewing stores nothing). `properties` are hidden fields when the
 * page already names them (a property's month), else the multi-calendar's checkboxes carry them.
 */
export function ChangeForm(props: { f: ChangeFields; properties?: readonly string[]; id?: string; formId?: string; title: string }) {
  const f = props.f;
  const weekdays = strs(f.weekdays);
  return (
    <section class="card" id={props.id ?? 'change'} aria-labelledby="change-h">
      <h2 id="change-h">{props.title}</h2>
      <form method="get" action="/app/calendar/change" class="change-form" id={props.formId} data-range-form>
        {(props.properties ?? strs(f.property_uids)).map((u) => (
          <input type="hidden" name="property_uids" value={u} />
        ))}
        <label>
          From <input type="date" name="from" value={str(f.from) ?? ''} required />
        </label>
        <label>
          To <input type="date" name="to" value={str(f.to) ?? ''} />
        </label>
        <fieldset class="weekdays">
          <legend>Only these weekdays (none: every date)</legend>
          {WEEKDAYS.map((w, i) => (
            <label class="check">
              <input type="checkbox" name="weekdays" value={String(i)} checked={weekdays.includes(String(i))} /> {w}
            </label>
          ))}
        </fieldset>
        {choose('price_mode', 'Price', str(f.price_mode), [
          ['keep', 'keep as it is'],
          ['set', 'set to'],
          ['percent', 'up/down by % (e.g. 10 or -5)'],
          ['amount', 'up/down by an amount'],
        ])}
        <label>
          Price value <input name="price" inputmode="decimal" value={str(f.price) ?? ''} />
        </label>
        {choose('availability', 'Availability', str(f.availability), [
          ['keep', 'keep as it is'],
          ['block', 'block (host)'],
          ['open', 'open'],
        ])}
        <label>
          Min stay <input name="min_stay" inputmode="numeric" value={str(f.min_stay) ?? ''} />
        </label>
        <label>
          Max stay (0 clears) <input name="max_stay" inputmode="numeric" value={str(f.max_stay) ?? ''} />
        </label>
        {choose('closed_to_arrival', 'Arrival', str(f.closed_to_arrival), [
          ['keep', 'keep as it is'],
          ['1', 'closed to arrival'],
          ['0', 'open to arrival'],
        ])}
        {choose('closed_to_departure', 'Departure', str(f.closed_to_departure), [
          ['keep', 'keep as it is'],
          ['1', 'closed to departure'],
          ['0', 'open to departure'],
        ])}
        <label>
          Notes <input name="notes" value={str(f.notes) ?? ''} />
        </label>
        <label class="check">
          <input type="checkbox" name="clear_notes" value="1" checked={f.clear_notes === '1'} /> Clear the notes
        </label>
        <button type="submit">Preview</button>
      </form>
    </section>
  );
}

const availText = (d: { is_available: 0 | 1; unavailable_reason: string }) => (d.is_available === 1 ? 'open' : d.unavailable_reason === 'blocked by reservation' ? 'booked' : 'blocked');
const flags = (d: { closed_to_arrival: 0 | 1; closed_to_departure: 0 | 1 }) =>
  [d.closed_to_arrival ? 'no arrival' : '', d.closed_to_departure ? 'no departure' : ''].filter(Boolean).join(', ') || 'open';
const arrow = (now: string, next: string | undefined) => (next === undefined || next === now ? now : `${now} → ${next}`);

function PreviewRow(props: { d: PreviewDate }) {
  const { now, next, warning, big } = props.d;
  const pct = next ? percentChange(now.price, next.price) : null;
  return (
    <tr class={[warning ? 'skipped' : '', big ? 'big' : ''].filter(Boolean).join(' ')}>
      <th scope="row" data-label="Date">
        {dateLabel(props.d.date)}
      </th>
      <td data-label="Price">
        {arrow(money(now.price, now.currency), next ? money(next.price, next.currency) : undefined)}
        {pct && pct !== '0%' ? ` (${pct})` : ''}
        {big && <strong class="flag"> beyond ±30%</strong>}
      </td>
      <td data-label="Availability">
        {arrow(availText(now), next ? availText(next) : undefined)}
        {now.booking_uid && (
          <span class="holder">
            {' '}
            booked: {now.guest_name ?? 'guest'} ({now.reservation_code})
          </span>
        )}
      </td>
      <td data-label="Min / max stay">
        {arrow(`${now.min_stay} / ${now.max_stay ?? 'none'}`, next ? `${next.min_stay} / ${next.max_stay ?? 'none'}` : undefined)}
      </td>
      <td data-label="Arrival / departure">{arrow(flags(now), next ? flags(next) : undefined)}</td>
      <td data-label="Notes">{arrow(now.notes ?? '', next ? (next.notes ?? '') : undefined)}</td>
      <td data-label="Warning">{warning ?? ''}</td>
    </tr>
  );
}

function Preview(props: { ctx: PageContext; previews: PropertyPreview[]; f: ChangeFields }) {
  const dates = props.previews.reduce((n, p) => n + p.dates.length, 0);
  const skipped = props.previews.reduce((n, p) => n + p.dates.filter((d) => d.warning).length, 0);
  const booked = props.previews.reduce((n, p) => n + p.dates.filter((d) => d.now.booking_uid).length, 0);
  return (
    <section class="card" id="preview" aria-labelledby="preview-h">
      <h2 id="preview-h">Preview: nothing is stored yet</h2>
      <p role="status">
        {dates} dates on {props.previews.length} {props.previews.length === 1 ? 'property' : 'properties'}; {skipped} would be skipped; {booked} booked nights.
      </p>
      {props.previews.map((p) => (
        <div class="table-wrap" role="region" aria-label={`Preview of ${p.property.name}`} tabindex={0}>
          <table class="preview">
            <caption>
              {p.property.name} ({p.property.time_zone})
            </caption>
            <ColumnHeads cols={['Date', 'Price', 'Availability', 'Min / max stay', 'Arrival / departure', 'Notes', 'Warning']} />
            <tbody>
              {p.dates.map((d) => (
                <PreviewRow d={d} />
              ))}
            </tbody>
          </table>
        </div>
      ))}
      <Form ctx={props.ctx} action="/app/calendar/change" class="apply">
        {Object.entries(props.f).flatMap(([k, v]) => (k === CSRF ? [] : strs(v).map((x) => <input type="hidden" name={k} value={x} />)))}
        <button type="submit">Apply</button>
      </Form>
    </section>
  );
}

/** The first issue of a refused change, in words. */
const issueText = (e: { issues: Array<{ path: PropertyKey[]; message: string }> }) => {
  const i = e.issues[0]!;
  return `${i.path.join('.') || 'change'}: ${i.message}`;
};

/** Where a change goes back to: the property's month (one property), else the multi-calendar. */
function backOf(c: CalendarChange): string {
  return c.property_uids.length === 1 ? `/app/properties/${encodeURIComponent(c.property_uids[0]!)}?month=${c.from.slice(0, 7)}` : `/app/calendar?from=${c.from}`;
}

export function calendarChangeRoutes(ctx: AppContext): Router {
  const router = Router();

  const page = async (req: Request, res: Response, f: ChangeFields, error?: string, previews?: PropertyPreview[]) => {
    const pctx = { ...pageContext(req, res), path: '/app/calendar' };
    await render(
      res,
      <Layout ctx={pctx} title="Change the calendar">
        <p class="crumbs">
          <a href="/app/calendar">Multi-calendar</a>
        </p>
        <h1>Change the calendar</h1>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <ChangeForm f={f} title="What to change" />
        {previews && <Preview ctx={pctx} previews={previews} f={f} />}
      </Layout>,
      error ? 400 : 200,
    );
  };

  /**
   * "All properties" (Today's choice) becomes the company's property uids, so the preview and its
   * Apply name each property as the multi-calendar's selection does.
   */
  const expand = async (companyUid: string, given: ChangeFields): Promise<ChangeFields> => {
    if (!strs(given.property_uids).includes(ALL_PROPERTIES)) return given;
    const all = await ctx.services.consoleDay.propertyOptions(companyUid);
    return { ...given, property_uids: all.map((p) => p.uid) };
  };

  router.get('/calendar/change', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const f = await expand(user.companyUid, req.query as ChangeFields);
    if (f.from === undefined) return page(req, res, f);
    const parsed = calendarChangeSchema.safeParse(f);
    if (!parsed.success) return page(req, res, f, issueText(parsed.error));
    try {
      return await page(req, res, f, undefined, await ctx.services.calendarChange.preview(user.companyUid, parsed.data, user.uid));
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return page(req, res, f, err.message);
      throw err;
    }
  });

  router.post('/calendar/change', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const f = await expand(user.companyUid, req.body as ChangeFields);
    const parsed = calendarChangeSchema.safeParse(f);
    if (!parsed.success) return page(req, res, f, issueText(parsed.error));
    try {
      const done = await ctx.services.calendarChange.apply(user.companyUid, parsed.data, user.uid);
      res.redirect(303, `${backOf(parsed.data)}&done=change&requests=${done.requestUids.length}&skipped=${done.skipped}`);
    } catch (err) {
      if (err instanceof AppError && err.status < 500) return page(req, res, f, err.message);
      throw err;
    }
  });

  return router;
}
