import { sql } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.js';
import { badParam, shown } from '../../infra/errors.js';
import { nightsHeld } from '../bookings/index.js';

/*
 * The review's guardrails (issue 42): a proposed price that moves more than the company's threshold
 * (default +/-30%) from the date's current price, or falls under the property's minimum price, is
 * marked; a marked date is approved only with its own tick. The console's approval passes the
 * ticked marked dates and the service refuses one it was not given (so the rule holds whatever
 * posts the form, not only the page). Booked nights are named with their guest.
 */

export type DayMark = 'beyond_threshold' | 'under_minimum';

/** What the guard reads of a proposal's day (a ProposalDay of proposals.review.ts). */
export interface GuardedDay {
  date: string;
  proposed: { price: number | null; currency: string | null };
  current: { price: number | null; currency: string } | null;
}

/** What a review is judged against: the company's threshold and zone, the property's minimum, the nights booked. */
export interface ReviewContext {
  /** Percent (whole): a change beyond +/- this is marked. */
  threshold: number;
  /** The property's minimum nightly price; null: none. */
  min_price: number | null;
  /** The property's currency (the minimum's) and zone. */
  currency: string;
  property_zone: string;
  /** The zone of company-wide times (when a proposal was made, when it expires). */
  company_zone: string;
  /** Booked nights of the proposal's dates: date -> the holding booking's guest and code. */
  booked: Map<string, { guest_name: string | null; reservation_code: string; booking_status: string }>;
}

/** A day's price change in percent (null: no price proposed, none current, or another currency) and its marks. */
export function judgeDay(day: GuardedDay, ctx: Pick<ReviewContext, 'threshold' | 'min_price' | 'currency'>): { change: number | null; marks: DayMark[] } {
  const { proposed: p, current: c } = day;
  if (p.price === null) return { change: null, marks: [] };
  const currency = (p.currency ?? c?.currency ?? ctx.currency).toUpperCase();
  const comparable = c !== null && c.price !== null && c.price > 0 && c.currency.toUpperCase() === currency;
  const change = comparable ? ((p.price - c.price!) / c.price!) * 100 : null;
  const marks: DayMark[] = [];
  if (change !== null && Math.abs(change) > ctx.threshold) marks.push('beyond_threshold');
  if (ctx.min_price !== null && currency === ctx.currency.toUpperCase() && p.price < ctx.min_price) marks.push('under_minimum');
  return { change, marks };
}

/**
 * The guard of an approval: every marked date among those approved must be in `ticked`, else a 400
 * naming the first such date and why it is marked.
 */
export function requireMarkedTicked(days: readonly GuardedDay[], approved: readonly string[] | null, ticked: readonly string[], ctx: ReviewContext): void {
  const ok = new Set(ticked);
  const approving = approved === null ? null : new Set(approved);
  const untickedMarked = days.filter((d) => (approving === null || approving.has(d.date)) && !ok.has(d.date) && judgeDay(d, ctx).marks.length > 0);
  if (untickedMarked.length === 0) return;
  const first = untickedMarked[0]!;
  const why = judgeDay(first, ctx).marks.map((m) => (m === 'beyond_threshold' ? `a price change beyond ${ctx.threshold}%` : 'a price under the minimum')).join(' and ');
  const more = untickedMarked.length > 1 ? ` (and ${untickedMarked.length - 1} more marked date${untickedMarked.length === 2 ? '' : 's'})` : '';
  throw badParam('marked_ok', `${shown(first.date)} is marked (${why})${more}: tick it to approve it, or leave it out`);
}

/** The review context of a property's dates [from, to]: one statement. Undefined: not the company's property. */
export async function selectReviewContext(db: Executor, companyUid: string, propertyUid: string, from: string, to: string): Promise<ReviewContext | undefined> {
  const rows = await db.execute<{
    threshold: number;
    min_price: number | null;
    currency: string;
    property_zone: string;
    company_zone: string;
    booked: { date: string; guest_name: string | null; reservation_code: string; booking_status: string }[];
  }>(sql`
    select c.price_change_threshold as threshold, p.min_price::float8 as min_price, p.currency, p.time_zone as property_zone, c.time_zone as company_zone,
           coalesce((select jsonb_agg(jsonb_build_object('date', to_char(h.night, 'YYYY-MM-DD'), 'guest_name', h.guest_name,
                                                        'reservation_code', h.reservation_code, 'booking_status', h.booking_status))
                       from (select distinct on (night) night, g.name as guest_name, b.reservation_code, b.booking_status
                               from bookings b
                               left join guests g on g.company_uid = b.company_uid and g.uid = b.guest_uid
                              ${nightsHeld(companyUid, propertyUid, from, to)}
                              order by night, b.local_checkin_dttm, b.booking_uid) h), '[]') as booked
      from properties p join companies c on c.uid = p.company_uid
     where p.company_uid = ${companyUid} and p.uid = ${propertyUid}`);
  const row = rows[0];
  if (!row) return undefined;
  return { ...row, booked: new Map(row.booked.map((b) => [b.date, { guest_name: b.guest_name, reservation_code: b.reservation_code, booking_status: b.booking_status }])) };
}
