import { daysBetween } from '../../infra/time.js';

/*
 * Whether a stay may be made (issue 35; docs/api.md "Calendar restrictions, and stays that obey the
 * calendar"): the ONE function book-property and the quote both judge a stay with, so that the
 * quote's `bookable` is exactly book-property's acceptance. Pure: it judges the calendar it is
 * given; where that calendar is read, and under which lock, is stay.ts's business.
 */

/** The rules, in the order they are reported (and the first names the refusal's message and param). */
export const stayRules = [
  'past',
  'blocked_by_reservation',
  'blocked_by_host',
  'closed_to_arrival',
  'min_stay',
  'max_stay',
  'closed_to_departure',
  'no_price',
  'currency_mismatch',
] as const;
export type StayRule = (typeof stayRules)[number];

/**
 * Rules that only the quote reports: they leave `total` null but do not refuse the stay, because
 * book-property takes its price from the client (price_total, currency), not from the calendar.
 */
export const priceRules: readonly StayRule[] = ['no_price', 'currency_mismatch'];

export interface StayViolation {
  rule: StayRule;
  date: string;
  message: string;
  /** The parameter a client changes to mend it: the arrival's rules name checkin_date, the length and departure checkout_date. */
  param: 'checkin_date' | 'checkout_date';
}

/** A date of the stay's calendar as the calendar view reads it, with what the view folds together kept apart. */
export interface StayDay {
  date: string;
  /** A calendar change closed the night (whatever a booking does). */
  host_blocked: boolean;
  /** A holding booking (other than the one being changed) holds the night. */
  held: boolean;
  price: number | null;
  currency: string;
  min_stay: number;
  max_stay: number | null;
  closed_to_arrival: 0 | 1;
  closed_to_departure: 0 | 1;
}

export interface Stay {
  checkin: string;
  checkout: string;
  /** Today in the property's zone: a check-in before it is in the past. */
  today: string;
}

const nightsWord = (n: number) => `${n} night${n === 1 ? '' : 's'}`;

/**
 * Every broken rule of the stay over `days` (the dates from check-in to check-out, both included;
 * a missing date is judged as never set by nobody: it cannot be, the view reads every date). Sorted
 * by rule order, then date.
 */
export function judgeStay(stay: Stay, days: readonly StayDay[]): StayViolation[] {
  const out: StayViolation[] = [];
  const { checkin, checkout } = stay;
  // daysBetween counts both ends: the nights are one fewer.
  const nights = daysBetween(checkin, checkout) - 1;
  const byDate = new Map(days.map((d) => [d.date, d]));
  const arrival = byDate.get(checkin);
  const departure = byDate.get(checkout);
  const stayNights = days.filter((d) => d.date >= checkin && d.date < checkout);
  if (checkin < stay.today) out.push({ rule: 'past', date: checkin, param: 'checkin_date', message: `checkin_date ${checkin} is in the past (today is ${stay.today} in the property's zone)` });
  for (const d of stayNights) if (d.held) out.push({ rule: 'blocked_by_reservation', date: d.date, param: 'checkin_date', message: `${d.date} is held by another booking` });
  for (const d of stayNights) if (d.host_blocked) out.push({ rule: 'blocked_by_host', date: d.date, param: 'checkin_date', message: `${d.date} is blocked by host` });
  if (arrival?.closed_to_arrival === 1) out.push({ rule: 'closed_to_arrival', date: checkin, param: 'checkin_date', message: `${checkin} is closed to arrival` });
  if (arrival && nights < arrival.min_stay) {
    out.push({ rule: 'min_stay', date: checkin, param: 'checkout_date', message: `a stay of ${nightsWord(nights)} is shorter than the min_stay ${arrival.min_stay} of ${checkin}` });
  }
  if (arrival?.max_stay != null && nights > arrival.max_stay) {
    out.push({ rule: 'max_stay', date: checkin, param: 'checkout_date', message: `a stay of ${nightsWord(nights)} is longer than the max_stay ${arrival.max_stay} of ${checkin}` });
  }
  if (departure?.closed_to_departure === 1) out.push({ rule: 'closed_to_departure', date: checkout, param: 'checkout_date', message: `${checkout} is closed to departure` });
  for (const d of stayNights) if (d.price === null) out.push({ rule: 'no_price', date: d.date, param: 'checkin_date', message: `${d.date} has no price` });
  const currency = stayNights[0]?.currency;
  for (const d of stayNights) {
    if (d.price !== null && d.currency !== currency) {
      out.push({ rule: 'currency_mismatch', date: d.date, param: 'checkin_date', message: `${d.date} is priced in ${d.currency}, not ${currency} as ${checkin}` });
    }
  }
  return out;
}

/** The violations that refuse a stay (all but the price rules). */
export const refusing = (violations: readonly StayViolation[]) => violations.filter((v) => !priceRules.includes(v.rule));

/** The quote's total: the nights' prices summed in their one currency, or null (a night unpriced, or currencies mixed). */
export function stayTotal(days: readonly StayDay[], stay: Stay, violations: readonly StayViolation[]): { currency: string; price_total: number } | null {
  if (violations.some((v) => priceRules.includes(v.rule))) return null;
  const nights = days.filter((d) => d.date >= stay.checkin && d.date < stay.checkout);
  const first = nights[0];
  if (!first) return null;
  // Summed in cents: 0.1 + 0.2 must total 0.30.
  const cents = nights.reduce((sum, d) => sum + Math.round((d.price ?? 0) * 100), 0);
  return { currency: first.currency, price_total: cents / 100 };
}
