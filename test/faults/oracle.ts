import type { WireDay } from './batches.js';

/*
 * The expected outcome, computed from the contract (docs/api.md) and nothing else: what was accepted,
 * in acceptance order. Written independently of the service's own rules module on purpose.
 */

export const PAST = 'Day ignored - can not modify past dates';
export const NO_CURRENCY = 'Day ignored - currency is mandatory if price specified';
export const NOTHING = 'Day ignored - no fields to change';

export interface KeptDay {
  date: string;
  price: number | null;
  currency: string | null;
  isAvailable: boolean | null;
  minStay: number | null;
  /** "" kept as given: it clears the notes. */
  notes: string | null;
}

export interface ExpectedBatch {
  kept: KeptDay[];
  warnings: Record<string, string>;
  /** Kept days split into requests, in date order (chunks of `chunkDays`). */
  chunks: KeptDay[][];
}

const has = <T>(v: T | undefined | null): v is T => v !== undefined && v !== null;

/** Duplicate dates merge in array order (a later entry's given fields win); rules apply in order. */
export function expectBatch(days: readonly WireDay[], today: string, chunkDays: number): ExpectedBatch {
  const merged = new Map<string, WireDay>();
  for (const d of days) {
    const prev = merged.get(d.date);
    if (!prev) {
      merged.set(d.date, { ...d });
      continue;
    }
    for (const k of ['price', 'currency', 'is_available', 'min_stay', 'notes'] as const) {
      if (has(d[k])) (prev as unknown as Record<string, unknown>)[k] = d[k];
    }
  }
  const kept: KeptDay[] = [];
  const warnings: Record<string, string> = {};
  for (const d of merged.values()) {
    if (d.date < today) warnings[d.date] = PAST;
    else if (has(d.price) && !has(d.currency)) warnings[d.date] = NO_CURRENCY;
    else {
      const day: KeptDay = {
        date: d.date,
        price: has(d.price) ? d.price : null,
        currency: has(d.price) && has(d.currency) ? d.currency.toUpperCase() : null,
        isAvailable: has(d.is_available) ? d.is_available === true || d.is_available === 1 : null,
        minStay: has(d.min_stay) ? d.min_stay : null,
        notes: has(d.notes) ? d.notes : null,
      };
      if (day.price === null && day.isAvailable === null && day.minStay === null && day.notes === null) warnings[d.date] = NOTHING;
      else kept.push(day);
    }
  }
  kept.sort((a, b) => a.date.localeCompare(b.date));
  const chunks: KeptDay[][] = [];
  for (let i = 0; i < kept.length; i += chunkDays) chunks.push(kept.slice(i, i + chunkDays));
  return { kept, warnings, chunks };
}

export interface ExpectedDay {
  price: number | null;
  currency: string | null;
  isAvailable: boolean | null;
  minStay: number | null;
  notes: string | null;
  /** The last accepted request that touched the date. */
  requestUid: string;
  /** Every accepted request that touched the date, with the values it sent there (notes "" as null). */
  sent: Map<string, SentValues>;
}

type SentValues = Partial<Pick<ExpectedDay, 'price' | 'currency' | 'isAvailable' | 'minStay' | 'notes'>>;

/**
 * Whether `uid` may be the date's request_uid: the latest-submitted request that changed one of its
 * values as the workers applied them (a request that re-sent stored values changes nothing, issue
 * 37), so an accepted request that sent the date and whose value of some field the date still holds.
 */
export function mayBeLastChanger(want: ExpectedDay, uid: string | null): boolean {
  const sent = uid === null ? undefined : want.sent.get(uid);
  if (!sent) return false;
  const price = sent.price !== undefined && sent.price === want.price && sent.currency === want.currency;
  return price || (sent.isAvailable !== undefined && sent.isAvailable === want.isAvailable) || (sent.minStay !== undefined && sent.minStay === want.minStay) || (sent.notes !== undefined && sent.notes === want.notes);
}

/** One property's calendar: apply accepted batches in acceptance order, field group by field group. */
export class PropertyOracle {
  readonly days = new Map<string, ExpectedDay>();

  apply(batch: ExpectedBatch, requestUids: readonly string[]): void {
    batch.chunks.forEach((chunk, i) => {
      const uid = requestUids[i] as string;
      for (const d of chunk) {
        const cur = this.days.get(d.date) ?? { price: null, currency: null, isAvailable: null, minStay: null, notes: null, requestUid: uid, sent: new Map() };
        const sent: SentValues = {};
        if (d.price !== null) {
          cur.price = sent.price = d.price;
          cur.currency = sent.currency = d.currency;
        }
        if (d.isAvailable !== null) cur.isAvailable = sent.isAvailable = d.isAvailable;
        if (d.minStay !== null) cur.minStay = sent.minStay = d.minStay;
        if (d.notes !== null) cur.notes = sent.notes = d.notes === '' ? null : d.notes;
        cur.requestUid = uid;
        cur.sent.set(uid, sent);
        this.days.set(d.date, cur);
      }
    });
  }
}
