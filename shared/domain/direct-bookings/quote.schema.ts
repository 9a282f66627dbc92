import { z } from 'zod';
import { calendarDate, uidValue } from '../../infra/http/wire.js';
import { daysBetween } from '../../infra/time.js';
import { stayRules, unavailableReasons } from '../calendar/index.js';

/** The longest stay a quote prices (a year and a day, as the calendar read's range). */
export const MAX_QUOTE_NIGHTS = 366;

/** Query of GET /api/v1/quote. */
export const quoteQuerySchema = z
  .object({
    property_uid: uidValue(),
    checkin_date: calendarDate.describe('YYYY-MM-DD, the arrival date'),
    checkout_date: calendarDate.describe(`YYYY-MM-DD, after checkin_date, at most ${MAX_QUOTE_NIGHTS} nights after it`),
    guests: z
      .union([z.number(), z.string().trim().regex(/^\d+$/, 'must be an integer >= 1').transform(Number)], { error: 'must be an integer >= 1' })
      .pipe(z.number().int('must be an integer >= 1').min(1, 'must be an integer >= 1').max(1000))
      .optional()
      .describe('Optional, as book-property takes it (an integer from 1 to 1000); it changes no rule and no price'),
  })
  .superRefine((q, ctx) => {
    if (q.checkout_date <= q.checkin_date) ctx.addIssue({ code: 'custom', path: ['checkout_date'], message: 'must be after checkin_date' });
    else if (daysBetween(q.checkin_date, q.checkout_date) - 1 > MAX_QUOTE_NIGHTS) {
      ctx.addIssue({ code: 'custom', path: ['checkout_date'], message: `a stay may have at most ${MAX_QUOTE_NIGHTS} nights` });
    }
  });
export type QuoteQuery = z.output<typeof quoteQuerySchema>;

export const quoteAnswerSchema = z.object({
  data: z.object({
    property_uid: z.string(),
    checkin_date: z.string().meta({ format: 'date' }),
    checkout_date: z.string().meta({ format: 'date' }),
    nights: z
      .array(
        z.object({
          date: z.string().meta({ format: 'date' }),
          price: z.number().nullable(),
          currency: z.string(),
          is_available: z.union([z.literal(0), z.literal(1)]),
          unavailable_reason: z.enum(unavailableReasons),
        }),
      )
      .describe('Each night from checkin_date to the day before checkout_date, as get-calendar-data reads it'),
    total: z
      .object({ currency: z.string(), price_total: z.number() })
      .nullable()
      .describe("The nights' prices summed; null when a night has no price or the nights' currencies differ"),
    bookable: z.boolean().describe('Exactly whether book-property would accept this stay now (the same rules function judges both)'),
    violations: z
      .array(z.object({ rule: z.enum(stayRules), date: z.string().meta({ format: 'date' }), message: z.string() }))
      .describe(
        'Every broken rule: past, blocked_by_reservation, blocked_by_host, closed_to_arrival, min_stay, max_stay, ' +
          'closed_to_departure (each refuses the stay), and no_price, currency_mismatch (they only make total null: ' +
          'book-property takes its price from the client)',
      ),
  }),
});
export type QuoteAnswer = z.infer<typeof quoteAnswerSchema>;
