import { Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../../shared/app/context.js';
import { bookingStatuses, platformTypes } from '../../../shared/domain/bookings/index.js';
import type { BookingListRow, BookingSearch, PropertyOption } from '../../../shared/domain/console/index.js';
import { calendarDate } from '../../../shared/infra/http/wire.js';
import { money } from '../format.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Layout } from '../layout.js';
import { render } from '../render.js';
import { wallTime } from './day-parts.js';

/*
 * /app/bookings (issue 41): the company's bookings, latest check-in first, 25 a page, searched by
 * what a person remembers: a reservation code or part of the guest's or property's name, a
 * property, dates (stays overlapping them), status, platform. Every parameter is parsed; a bad one
 * shows the form again with its message (400), never a 500.
 */

/** An empty field of the form is no filter. */
const blank = (v: unknown) => (v === '' ? undefined : v);

export const bookingSearchSchema = z
  .object({
    q: z.preprocess(blank, z.string().trim().max(100, 'must be at most 100 characters').optional()),
    property: z.preprocess(blank, z.string().max(100, 'must be a property').optional()),
    from: z.preprocess(blank, calendarDate.optional()),
    to: z.preprocess(blank, calendarDate.optional()),
    status: z.preprocess(blank, z.enum(bookingStatuses, { error: 'must be a booking status' }).optional()),
    platform: z.preprocess(blank, z.enum(platformTypes, { error: 'must be a platform' }).optional()),
    page: z.preprocess(blank, z.coerce.number({ error: 'must be a whole number from 1' }).int('must be a whole number from 1').min(1, 'must be a whole number from 1').max(10_000, 'must be at most 10000').default(1)),
  })
  .refine((s) => !s.from || !s.to || s.from <= s.to, { message: 'must not be before from', path: ['to'] });

type Filters = Record<string, string>;

function SearchForm(props: { f: Filters; properties: PropertyOption[] }) {
  const { f } = props;
  return (
    <form method="get" action="/app/bookings" class="filters" role="search" aria-label="Search bookings">
      <label>
        Guest, code or property <input type="search" name="q" value={f.q ?? ''} maxlength={100} />
      </label>
      <label>
        Property{' '}
        <select name="property">
          <option value="">Any</option>
          {props.properties.map((p) => (
            <option value={p.uid} selected={p.uid === f.property}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Staying from <input type="date" name="from" value={f.from ?? ''} />
      </label>
      <label>
        to <input type="date" name="to" value={f.to ?? ''} />
      </label>
      <label>
        Status{' '}
        <select name="status">
          <option value="">Any</option>
          {bookingStatuses.map((s) => (
            <option value={s} selected={s === f.status}>
              {s.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
      </label>
      <label>
        Platform{' '}
        <select name="platform">
          <option value="">Any</option>
          {platformTypes.map((p) => (
            <option value={p} selected={p === f.platform}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Search</button>
    </form>
  );
}

function Results(props: { rows: BookingListRow[] }) {
  if (props.rows.length === 0) return <p>No booking matches.</p>;
  return (
    <table class="stack bookings" aria-label="Bookings">
      <thead>
        <tr>
          <th>Guest</th>
          <th>Property</th>
          <th>Check-in</th>
          <th>Check-out</th>
          <th>Status</th>
          <th>Platform</th>
          <th>Total</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((b) => (
          <tr>
            <td data-label="Guest">
              <a href={`/app/bookings/${encodeURIComponent(b.booking_uid)}`}>{b.guest_name ?? 'Guest'}</a> <span class="muted">{b.reservation_code}</span>
            </td>
            <td data-label="Property">{b.property_name}</td>
            <td data-label="Check-in">{wallTime(b.local_checkin_dttm, b.time_zone, true)}</td>
            <td data-label="Check-out">{wallTime(b.local_checkout_dttm, b.time_zone, true)}</td>
            <td data-label="Status">{b.booking_status.replace(/_/g, ' ')}</td>
            <td data-label="Platform">{b.platform_type}</td>
            <td data-label="Total">{money(b.price_total, b.currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function bookingsRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/bookings', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const raw = req.query as Record<string, unknown>;
    const f: Filters = Object.fromEntries(Object.entries(raw).filter(([, v]) => typeof v === 'string')) as Filters;
    const parsed = bookingSearchSchema.safeParse(raw);
    let error: string | undefined;
    let search: BookingSearch | undefined;
    if (parsed.success) {
      const s = parsed.data;
      search = { q: s.q || undefined, property_uid: s.property, from: s.from, to: s.to, status: s.status, platform: s.platform, page: s.page };
    } else {
      const issue = parsed.error.issues[0];
      error = `${String(issue?.path[0] ?? 'search')} ${issue?.message ?? 'is invalid'}`;
    }
    // The form's properties and the page of bookings: two statements at once.
    const [properties, list] = await Promise.all([
      ctx.services.consoleDay.propertyOptions(user.companyUid),
      search ? ctx.services.consoleDay.bookings(user.companyUid, search) : undefined,
    ]);
    const pageLink = (page: number) => `/app/bookings?${new URLSearchParams({ ...f, page: String(page) }).toString()}`;
    await render(
      res,
      <Layout ctx={pageContext(req, res)} title="Bookings">
        <h1>Bookings</h1>
        <SearchForm f={f} properties={properties} />
        {error && (
          <p class="notice error" role="alert">
            {error}
          </p>
        )}
        {list && (
          <>
            <p class="muted" role="status">
              {list.data.length === 0 ? 'No booking matches.' : `Page ${list.meta.page}: ${list.data.length} booking${list.data.length === 1 ? '' : 's'}${list.meta.has_next_page ? ' (more on the next page)' : ''}. Times are at each property.`}
            </p>
            {list.data.length > 0 && <Results rows={list.data} />}
            <nav class="pages" aria-label="Pages">
              {list.meta.page > 1 && <a href={pageLink(list.meta.page - 1)}>Previous page</a>}
              {list.meta.has_next_page && <a href={pageLink(list.meta.page + 1)}>Next page</a>}
            </nav>
          </>
        )}
      </Layout>,
      error ? 400 : 200,
    );
  });
  return router;
}
