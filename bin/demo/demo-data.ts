import { bookingStatuses, platformTypes, type BookingStatus, type PlatformType } from '../../shared/domain/bookings/index.js';
import type { Random } from './random.js';

/*
 * Shapes of the demo data: who, where, when and how much. Pure functions of a PRNG and a reference
 * "now", so a seed gives the same shape every time. Money is computed in minor units and written as
 * numeric strings, so price_total is exactly the sum of its parts.
 */

export const taskTypes = ['cleaning', 'handyman', 'task'] as const;
export const taskStatuses = ['unassigned', 'assigned', 'accepted', 'completed', 'rejected'] as const;

export interface DemoZone {
  timeZone: string;
  currency: string;
  /** Nightly rate range in whole currency units. */
  nightly: [number, number];
  names: readonly string[];
}

export const demoZones: readonly DemoZone[] = [
  { timeZone: 'America/New_York', currency: 'USD', nightly: [120, 420], names: ['Brooklyn Loft', 'Hudson View', 'Catskills Cabin', 'Harlem Brownstone'] },
  { timeZone: 'Europe/Lisbon', currency: 'EUR', nightly: [70, 260], names: ['Alfama Terrace', 'Belem Garden', 'Cascais Beach House', 'Chiado Studio'] },
  { timeZone: 'Asia/Tokyo', currency: 'JPY', nightly: [9000, 38000], names: ['Shibuya Studio', 'Asakusa Machiya', 'Nakameguro Flat', 'Hakone Ryokan Suite'] },
];

const statusWeights: Record<BookingStatus, number> = {
  accepted: 62,
  cancelled: 9,
  new: 3,
  pending: 3,
  awaiting_payment: 3,
  awaiting_acceptance: 3,
  unconfirmed: 3,
  declined: 3,
  expired: 3,
  at_checkpoint: 2,
  pending_cancelled: 2,
  failed_payment: 2,
  failed_verification: 2,
};

const platformWeights: Record<PlatformType, number> = { airbnb: 45, booking: 25, vrbo: 12, airgms: 12, homeaway: 6 };

/** The first bookings take every status and platform in turn, so even a small demo shows them all. */
export function bookingStatusAt(r: Random, i: number): BookingStatus {
  return i < bookingStatuses.length ? bookingStatuses[i]! : r.weighted(statusWeights);
}

export function platformAt(r: Random, i: number): PlatformType {
  return i < platformTypes.length ? platformTypes[i]! : r.weighted(platformWeights);
}

export function reservationCode(r: Random, platform: PlatformType): string {
  switch (platform) {
    case 'airbnb':
      return `HM${r.code(8)}`;
    case 'booking':
      return String(r.int(1_000_000_000, 9_999_999_999));
    case 'vrbo':
    case 'homeaway':
      return `HA-${r.code(6)}`;
    case 'airgms':
      return `AG${r.code(8)}`;
  }
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** `YYYY-MM-DD HH:MM:SS` of an instant read as UTC (also used for wall-clock times kept as naive). */
export function wireDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

export interface Stay {
  checkinMs: number;
  checkoutMs: number;
  bookedMs: number;
  createdMs: number;
  updatedMs: number;
  nights: number;
}

/**
 * A stay starting `startDay` days after today (negative: in the past), with the booking made some
 * days before check-in but never after `nowMs`. Wall-clock times are naive: check-in 15:00/16:00,
 * check-out 10:00/11:00.
 */
export function stayAt(r: Random, todayMs: number, nowMs: number, startDay: number, nights: number): Stay {
  const checkinMs = todayMs + startDay * DAY_MS + r.pick([15, 16]) * HOUR_MS;
  const checkoutMs = todayMs + (startDay + nights) * DAY_MS + r.pick([10, 11]) * HOUR_MS;
  let bookedMs = checkinMs - r.int(1, 120) * DAY_MS + r.int(-43_200, 43_200) * 1000;
  if (bookedMs > nowMs) bookedMs = nowMs - r.int(1, 72) * HOUR_MS;
  const createdMs = bookedMs + r.int(5, 300) * 1000;
  const updatedMs = Math.min(nowMs, r.chance(0.6) ? createdMs : createdMs + r.int(1, 30 * 24) * HOUR_MS);
  return { checkinMs, checkoutMs, bookedMs, createdMs, updatedMs, nights };
}

export const nightsChoices: readonly number[] = [1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 7, 7, 10, 14];
export const gapChoices: readonly number[] = [0, 0, 1, 1, 2, 3, 5];
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Average days a booking takes on a property's timeline (stay + gap), to centre it on today. */
export const averageDaysPerBooking = mean(nightsChoices) + mean(gapChoices);

export interface Price {
  base: string;
  extras: string;
  fee: string;
  tax: string;
  total: string;
}

const money = (minor: number) => (minor / 100).toFixed(2);

export function priceOf(r: Random, zone: DemoZone, nightlyUnits: number, nights: number): Price {
  const unit = zone.currency === 'JPY' ? 100 : 1;
  const base = Math.round(nightlyUnits * (0.85 + r.next() * 0.3)) * nights * 100;
  const extras = r.chance(0.3) ? r.pick([15, 25, 40, 60]) * unit * 100 : 0;
  const fee = r.pick([45, 60, 75, 90]) * unit * 100;
  const tax = Math.round((base + fee) * r.pick([0.06, 0.1, 0.12, 0.14]));
  return { base: money(base), extras: money(extras), fee: money(fee), tax: money(tax), total: money(base + extras + fee + tax) };
}

export function doorCode(r: Random): string | null {
  return r.chance(0.2) ? null : String(r.int(1000, 999_999));
}

export function taskTypeAt(r: Random, k: number): (typeof taskTypes)[number] {
  return k < taskTypes.length * taskStatuses.length
    ? taskTypes[k % taskTypes.length]!
    : r.weighted({ cleaning: 70, handyman: 15, task: 15 });
}

export function taskStatusAt(r: Random, k: number, past: boolean): (typeof taskStatuses)[number] {
  if (k < taskTypes.length * taskStatuses.length) return taskStatuses[Math.floor(k / taskTypes.length)]!;
  return past
    ? r.weighted({ completed: 80, rejected: 4, accepted: 6, assigned: 6, unassigned: 4 })
    : r.weighted({ unassigned: 30, assigned: 40, accepted: 25, rejected: 5 });
}

export const taskDescriptions: Record<(typeof taskTypes)[number], readonly string[]> = {
  cleaning: ['Turnover clean', 'Deep clean and linen change', 'Mid-stay refresh'],
  handyman: ['Fix dripping tap', 'Replace smoke detector battery', 'Check AC unit'],
  task: ['Restock coffee and toiletries', 'Meet guest for key handover', 'Photograph the listing'],
};
