import { z } from 'zod';
import { ianaZone } from '../../infra/time.js';

/*
 * The company's console settings (issue 42), set by its owners: the zone of company-wide lists
 * and the price change beyond which a proposed price is marked for review.
 */

export interface CompanySettings {
  /** IANA zone of company-wide lists (a property's own times use the property's zone). */
  time_zone: string;
  /** A proposed price change beyond +/- this percent is marked and needs its own tick. */
  price_change_threshold: number;
}

export const DEFAULT_SETTINGS: CompanySettings = { time_zone: 'UTC', price_change_threshold: 30 };

/** The settings form as posted: a zone the runtime knows (kept in its canonical spelling) and a whole percent 1-1000. */
export const companySettingsSchema = z.object({
  time_zone: z
    .string()
    .trim()
    .min(1, 'Give a time zone, for example Europe/Lisbon')
    .max(64, 'is too long for a time zone')
    .transform((v, ctx) => {
      const zone = ianaZone(v);
      if (zone === undefined) ctx.addIssue({ code: 'custom', message: `${v} is not a time zone this server knows (use a name like Asia/Tokyo or Europe/Lisbon)` });
      return zone ?? v;
    }),
  price_change_threshold: z.coerce
    .number({ message: 'must be a whole number of percent' })
    .int('must be a whole number of percent')
    .min(1, 'must be at least 1%')
    .max(1000, 'must be at most 1000%'),
});
