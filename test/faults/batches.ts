/*
 * The batches the suite submits, generated from a seed so a failing run can be replayed
 * (FAULTS_SEED=...). Overlapping date ranges across batches of one property, random subsets of
 * fields, notes "" sometimes, and a few days that must be skipped with a warning (past, price
 * without currency, nothing to change) and duplicate dates that must merge in array order.
 */

export interface WireDay {
  date: string;
  price?: number;
  currency?: string;
  is_available?: 0 | 1 | boolean;
  min_stay?: number;
  notes?: string;
}

export interface PlannedBatch {
  property: number;
  index: number;
  days: WireDay[];
}

/** mulberry32: small, fast, good enough to vary test data. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function addDays(isoDate: string, n: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export const utcToday = () => new Date().toISOString().slice(0, 10);

/** The last day offset a batch may touch: read-back covers today .. today + 365. */
export const MAX_OFFSET = 360;

export function planBatches(seed: number, properties: number, perProperty: number, today: string): PlannedBatch[][] {
  const r = rng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const plan: PlannedBatch[][] = [];
  for (let p = 0; p < properties; p++) {
    const batches: PlannedBatch[] = [];
    for (let b = 0; b < perProperty; b++) {
      const length = int(50, 200);
      // Ranges drawn from a window of ~260 days, so batches of one property overlap a lot.
      const start = int(2, Math.min(260, MAX_OFFSET - length));
      const groups = { price: r() < 0.6, avail: r() < 0.6, stay: r() < 0.6, notes: r() < 0.6 };
      if (!groups.price && !groups.avail && !groups.stay && !groups.notes) groups.notes = true;
      const value = (i: number): WireDay => {
        const d: WireDay = { date: addDays(today, start + i) };
        if (groups.price && r() < 0.85) {
          d.price = int(1000, 99_999) / 100;
          d.currency = pick(['USD', 'EUR', 'gbp']);
        }
        if (groups.avail && r() < 0.85) d.is_available = pick([0, 1, true, false] as const);
        if (groups.stay && r() < 0.85) d.min_stay = int(1, 14);
        if (groups.notes && r() < 0.85) d.notes = r() < 0.15 ? '' : `p${p} b${b} #${i} ü`;
        return d;
      };
      const days: WireDay[] = [];
      for (let i = 0; i < length; i++) {
        if (r() < 0.08) continue; // a gap: batches are subsets, not only ranges
        const roll = r();
        if (roll < 0.01) days.push({ date: addDays(today, start + i), price: 12.5 }); // no currency -> warning
        else if (roll < 0.02) days.push({ date: addDays(today, start + i) }); // nothing to change -> warning
        else days.push(value(i));
        if (r() < 0.03) days.push(value(i)); // a duplicate date later in the array: merges, later fields win
      }
      if (r() < 0.2) days.unshift({ date: addDays(today, -int(2, 5)), min_stay: 2 }); // past -> warning
      batches.push({ property: p, index: b, days });
    }
    plan.push(batches);
  }
  return plan;
}
