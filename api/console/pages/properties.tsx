import { Router } from 'express';
import { ListingContentPanel } from './listing-content-panel.js';
import type { AppContext } from '../../../shared/app/context.js';
import type { PropertyListRow } from '../../../shared/domain/console/index.js';
import { badParam } from '../../../shared/infra/errors.js';
import { pageContext, requireUser, userOf } from '../guard.js';
import { Form, Layout, Notice, type PageContext } from '../layout.js';
import { render } from '../render.js';
import { MonthGrid, ProvenancePanel } from './property-month.js';
import { ChangeForm } from './calendar-change.js';
import { BookingForm } from './booking-form.js';
import { CurrentMinPriceForm } from './property-min-price.js';
import { ColumnHeads } from '../table.js';

/*
 * /app/properties: the company's properties; /app/properties/:uid?month=YYYY-MM[&date=YYYY-MM-DD]:
 * one month of a property (values, bookings, host blocks, pending proposals) and, given a date,
 * that date's provenance. Owners and managers change the calendar control flag here (a POST,
 * then back to the month). Every read is the company's only: another company's property is 404.
 */

const NOTICES = {
  control: 'Calendar control is updated.',
  day: 'The day change is queued: it applies in a moment.',
  change: 'The change is queued: it applies in a moment (see Requests).',
} as const;

const controlText = (allowed: boolean) => (allowed ? 'apps apply calendar changes at once' : 'apps only propose changes, for review');

function PropertyList(props: { rows: PropertyListRow[] }) {
  if (props.rows.length === 0) return <p>This company has no property yet.</p>;
  return (
    <table>
      <ColumnHeads cols={['Property', 'City', 'Time zone', 'Currency', 'Calendar control', 'Upcoming bookings', 'Pending proposal requests']} />
      <tbody>
        {props.rows.map((p) => (
          <tr>
            <td>
              <a href={`/app/properties/${encodeURIComponent(p.uid)}`}>{p.name}</a>
            </td>
            <td>{p.city ?? ''}</td>
            <td>{p.time_zone}</td>
            <td>{p.currency}</td>
            <td>{p.calendar_control_allowed ? 'allowed' : 'proposals only'}</td>
            <td>{p.upcoming_bookings}</td>
            <td>{p.pending_proposal_requests}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ControlForm(props: { ctx: PageContext; uid: string; allowed: boolean; back: string }) {
  return (
    <Form ctx={props.ctx} action={`/app/properties/${encodeURIComponent(props.uid)}/calendar-control`} class="control">
      <input type="hidden" name="back" value={props.back} />
      <fieldset>
        <legend>Calendar control</legend>
        <label class="check">
          <input type="radio" name="allowed" value="1" checked={props.allowed} /> Allowed: {controlText(true)}
        </label>
        <label class="check">
          <input type="radio" name="allowed" value="0" checked={!props.allowed} /> Not allowed: {controlText(false)}
        </label>
        <button type="submit">Save calendar control</button>
      </fieldset>
    </Form>
  );
}

const monthParam = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

export function propertiesRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/properties', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const rows = await ctx.services.console.properties(user.companyUid);
    await render(
      res,
      <Layout ctx={pageContext(req, res)} title="Properties">
        <h1>Properties</h1>
        <PropertyList rows={rows} />
      </Layout>,
    );
  });

  router.get('/properties/:uid', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const uid = String(req.params.uid);
    const date = monthParam(req.query.date);
    const month = monthParam(req.query.month) ?? date?.slice(0, 7);
    const [m, prov, content] = await Promise.all([
      ctx.services.console.month(user.companyUid, uid, month),
      date === undefined ? undefined : ctx.services.console.provenance(user.companyUid, uid, date),
      ctx.services.listingContent.ofProperty(user.companyUid, uid),
    ]);
    const base = `/app/properties/${encodeURIComponent(uid)}`;
    const done = req.query.done === 'control' || req.query.done === 'day' || req.query.done === 'change' ? NOTICES[req.query.done] : undefined;
    // A day the editor sent that the calendar's rules skipped: their warning, shown as it came back.
    const warning = typeof req.query.warning === 'string' && req.query.warning.startsWith('Day ignored - ') ? req.query.warning.slice(0, 200) : undefined;
    // The change form starts on the selected date (or the month's first date still to come).
    const editFrom = date ?? (m.today.slice(0, 7) === m.month ? m.today : `${m.month}-01`);
    // The booking form's outcome: the reservation made, or why the stay was refused.
    const booked = typeof req.query.booked === 'string' ? req.query.booked.slice(0, 40) : undefined;
    const refused = typeof req.query.refused === 'string' ? req.query.refused.slice(0, 200) : undefined;
    const cancelled = typeof req.query.cancelled === 'string' ? req.query.cancelled.slice(0, 40) : undefined;
    const notCancelled = typeof req.query.not_cancelled === 'string' ? req.query.not_cancelled.slice(0, 200) : undefined;
    const pctx = { ...pageContext(req, res), path: '/app/properties' };
    await render(
      res,
      <Layout ctx={pctx} title={`${m.property.name} · ${m.month}`}>
        <p class="crumbs">
          <a href="/app/properties">Properties</a>
        </p>
        <h1>{m.property.name}</h1>
        <Notice text={done} />
        {warning && (
          <p class="error" role="alert">
            Not changed: {warning}
          </p>
        )}
        {booked && (
          <p class="notice" role="status">
            Booked: reservation {booked}.
          </p>
        )}
        {refused && (
          <p class="error" role="alert">
            Not booked: {refused}
          </p>
        )}
        {notCancelled && (
          <p class="error" role="alert">
            Not cancelled: {notCancelled}
          </p>
        )}
        {cancelled && (
          <p class="notice" role="status">
            Cancelled: reservation {cancelled}.
          </p>
        )}
        <p class="muted">
          {m.property.time_zone} · {m.property.currency} · calendar control {m.property.calendar_control_allowed ? 'allowed' : 'not allowed'}: {controlText(m.property.calendar_control_allowed)}
        </p>
        <nav class="months" aria-label="Months">
          <a href={`${base}?month=${m.prev}`} rel="prev">
            ← {m.prev}
          </a>
          <h2>{m.month}</h2>
          <a href={`${base}?month=${m.next}`} rel="next">
            {m.next} →
          </a>
        </nav>
        <p class="legend muted">
          <span class="key booked">booked</span> <span class="key blocked">blocked by host</span> <a class="key proposed" href="/app/proposals">proposal pending</a> Select a date for who set its values; shift-click a second date to select a range to change.
        </p>
        <div class="month-wrap">
          <MonthGrid m={m} base={base} selected={date} />
        </div>
        {prov && <ProvenancePanel p={prov} />}
        <ChangeForm f={{ from: editFrom, to: editFrom }} properties={[uid]} title="Change dates" />
        <BookingForm ctx={pctx} propertyUid={uid} month={m.month} currency={m.property.currency} {...(date ? { checkin: date } : {})} {...(booked ? { booked } : {})} />
        <ControlForm ctx={pctx} uid={uid} allowed={m.property.calendar_control_allowed} back={m.month} />
        <CurrentMinPriceForm app={ctx} ctx={pctx} companyUid={user.companyUid} uid={uid} />
        <ListingContentPanel rows={content} />
      </Layout>,
    );
  });

  router.post('/properties/:uid/calendar-control', requireUser(ctx), async (req, res) => {
    const user = userOf(res);
    const uid = String(req.params.uid);
    const body = req.body as Record<string, unknown>;
    if (body.allowed !== '1' && body.allowed !== '0') throw badParam('allowed', 'allowed must be 1 or 0');
    await ctx.services.proposals.setCalendarControl(user.companyUid, { property_uid: uid, calendar_control_allowed: body.allowed === '1' });
    ctx.logger.info({ propertyUid: uid, allowed: body.allowed === '1', userUid: user.uid }, 'calendar control set in the console');
    const back = typeof body.back === 'string' && /^\d{4}-\d{2}$/.test(body.back) ? `&month=${body.back}` : '';
    res.redirect(303, `/app/properties/${encodeURIComponent(uid)}?done=control${back}`);
  });

  return router;
}
