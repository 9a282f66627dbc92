import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../infra/db/client.js';
import { properties } from '../../infra/db/schema/index.js';

/*
 * The property's minimum nightly price (issue 42): set by a person in the console (the wire has no
 * property write, so API clients neither see nor set it); a proposal pricing a date under it is
 * marked for review.
 */

/** The form's value: empty clears the minimum; else an amount in the property's currency, 0 to 1,000,000,000, at most 2 decimals. */
export const minPriceSchema = z
  .string()
  .trim()
  .max(20, 'is too long')
  .transform((v, ctx) => {
    if (v === '') return null;
    const n = /^\d+(\.\d{1,2})?$/.test(v) ? Number(v) : NaN;
    if (!Number.isFinite(n) || n > 1_000_000_000) {
      ctx.addIssue({ code: 'custom', message: 'must be an amount like 80 or 80.50 (empty: no minimum)' });
      return z.NEVER;
    }
    return n;
  });

/** Sets the minimum (null clears it); false when the property is not the company's. */
export async function updateMinPrice(db: Db, companyUid: string, propertyUid: string, minPrice: number | null): Promise<boolean> {
  const rows = await db
    .update(properties)
    .set({ minPrice: minPrice === null ? null : minPrice.toFixed(2) })
    .where(and(eq(properties.companyUid, companyUid), eq(properties.uid, propertyUid)))
    .returning({ uid: properties.uid });
  return rows.length > 0;
}
