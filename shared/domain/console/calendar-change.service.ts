import { z } from 'zod';
import { badParam } from '../../infra/errors.js';
import { isRealDate } from '../../infra/http/wire.js';
import { datesOf } from '../../infra/time.js';
import { setCalendarBatchBodySchema, type CalendarService, type PreviewDay } from '../calendar/index.js';
import { unknownProperty } from '../properties/index.js';
import { BaseService } from '../service.js';
import type { GridCellRow, GridFilter, GridPropertyRow } from './console-multicalendar.repository.js';
import type { CalendarChangeRepository } from './console.repository.js';

/*
 * "Change the calendar" of the console (issue 41): one change (dates, optionally only some
 * weekdays, and any calendar field: price set or moved by a percentage or an amount, availability,
 * min/max stay, notes, closed to arrival/departure) over one or several properties. It becomes one
 * set-calendar-batch body per property and goes through CalendarService.submitBatch, the API's own
 * path: first as a dry run (the preview: nothing stored), then for real, as requests of their own,
 * ordered with the apps' by the same sequence and stored with the console user who made them.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A YYYY-MM-DD that names a day of the calendar (not 2030-02-30). */
const real = (d: string) => {
  const [y, m, day] = d.split('-').map(Number) as [number, number, number];
  return isRealDate(y, m, day);
};
/** How many dates one change may span: two months and a day, the widest a person selects on a grid. */
export const MAX_CHANGE_DAYS = 62;
/** How many properties one change may name (the multi-calendar's widest selection). */
export const MAX_CHANGE_PROPERTIES = 200;
/** A price change beyond this share of the current price is marked in the preview. */
export const BIG_CHANGE_PERCENT = 30;

/** A form field: absent or blank is undefined. */
const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v);
const optional = <T extends z.ZodType>(t: T) => z.preprocess(blank, t.optional());
const list = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? (v as unknown[]) : [v]);
const tri = optional(z.enum(['keep', '1', '0'])).transform((v) => (v === undefined || v === 'keep' ? undefined : v === '1'));

export const calendarChangeSchema = z
  .object({
    property_uids: z.preprocess(list, z.array(z.string().min(1).max(64)).min(1, 'select at least one property').max(MAX_CHANGE_PROPERTIES, `at most ${MAX_CHANGE_PROPERTIES} properties at once`)),
    from: z.string().regex(DATE, 'from must be a date YYYY-MM-DD').refine(real, 'from is not a real date'),
    to: optional(z.string().regex(DATE, 'to must be a date YYYY-MM-DD').refine(real, 'to is not a real date')),
    /** Monday 0 .. Sunday 6; none selected: every date of the range. */
    weekdays: z.preprocess(list, z.array(z.coerce.number().int().min(0).max(6)).max(7)),
    price_mode: optional(z.enum(['keep', 'set', 'percent', 'amount'])).default('keep'),
    price: optional(z.coerce.number().min(-1_000_000).max(1_000_000)),
    availability: optional(z.enum(['keep', 'open', 'block'])).default('keep'),
    min_stay: optional(z.coerce.number().int().min(1).max(365)),
    max_stay: optional(z.coerce.number().int().min(0).max(365)),
    notes: optional(z.string().max(2000)),
    clear_notes: optional(z.literal('1')),
    closed_to_arrival: tri,
    closed_to_departure: tri,
  })
  .transform((c) => ({ ...c, to: c.to ?? c.from }))
  .refine((c) => c.to >= c.from, { path: ['to'], message: 'to is before from' })
  .refine((c) => datesOf(c.from, c.to).length <= MAX_CHANGE_DAYS, { path: ['to'], message: `at most ${MAX_CHANGE_DAYS} dates at once` })
  .refine((c) => c.price_mode === 'keep' || c.price !== undefined, { path: ['price'], message: 'give a price, a percentage or an amount' })
  .refine((c) => c.price_mode !== 'set' || (c.price ?? 0) >= 0, { path: ['price'], message: 'a price cannot be negative' });
export type CalendarChange = z.infer<typeof calendarChangeSchema>;

/** One date of the preview: as it reads now, as it would read, why it would be skipped. */
export interface PreviewDate {
  date: string;
  now: GridCellRow;
  next: PreviewDay | null;
  warning: string | null;
  /** The price moves more than BIG_CHANGE_PERCENT either way. */
  big: boolean;
}

export interface PropertyPreview {
  property: GridPropertyRow;
  dates: PreviewDate[];
}

/** The dates of a change: the range, only the chosen weekdays (Monday 0) if any. */
export function datesOfChange(c: Pick<CalendarChange, 'from' | 'to' | 'weekdays'>): string[] {
  const all = datesOf(c.from, c.to);
  if (c.weekdays.length === 0) return all;
  return all.filter((d) => c.weekdays.includes((new Date(`${d}T00:00:00Z`).getUTCDay() + 6) % 7));
}

/** Cents, half away from zero (the calendar stores two decimals the same way). */
const cents = (n: number) => Math.sign(n) * Math.round(Math.abs(n) * 100) / 100;

/** The new price of a date, or undefined when the change keeps it (or there is no price to move). */
export function newPrice(c: CalendarChange, current: number | null): number | undefined {
  if (c.price_mode === 'keep' || c.price === undefined) return undefined;
  if (c.price_mode === 'set') return cents(c.price);
  if (current === null) return undefined;
  const moved = c.price_mode === 'percent' ? current * (1 + c.price / 100) : current + c.price;
  return Math.max(0, cents(moved));
}

/** A date of the change as a set-calendar-batch day (only the fields the change sets). */
function batchDay(c: CalendarChange, cell: GridCellRow): Record<string, unknown> {
  const day: Record<string, unknown> = { date: cell.date };
  const price = newPrice(c, cell.price);
  if (price !== undefined) Object.assign(day, { price, currency: cell.currency });
  if (c.availability !== 'keep') day.is_available = c.availability === 'open' ? 1 : 0;
  if (c.min_stay !== undefined) day.min_stay = c.min_stay;
  if (c.max_stay !== undefined) day.max_stay = c.max_stay;
  if (c.clear_notes) day.notes = '';
  else if (c.notes !== undefined) day.notes = c.notes;
  if (c.closed_to_arrival !== undefined) day.closed_to_arrival = c.closed_to_arrival ? 1 : 0;
  if (c.closed_to_departure !== undefined) day.closed_to_departure = c.closed_to_departure ? 1 : 0;
  return day;
}

export class CalendarChangeService extends BaseService {
  constructor(
    infra: ConstructorParameters<typeof BaseService>[0],
    private readonly calendar: CalendarService,
    private readonly repo: CalendarChangeRepository,
  ) {
    super(infra);
  }

  /** The multi-calendar: every property of the company (or those matching `search`) over [from, to], one statement. */
  grid(companyUid: string, f: GridFilter): ReturnType<CalendarChangeRepository['selectCalendarGrid']> {
    return this.repo.selectCalendarGrid(this.db, companyUid, f);
  }

  /** The current cells of the change's properties and dates (one statement); an unknown property is a 404. */
  private async current(companyUid: string, c: CalendarChange) {
    const grid = await this.repo.selectCalendarGrid(this.db, companyUid, { from: c.from, to: c.to, propertyUids: c.property_uids });
    const missing = c.property_uids.find((u) => !grid.properties.some((p) => p.uid === u));
    if (missing !== undefined) throw unknownProperty(missing);
    const dates = new Set(datesOfChange(c));
    const byProperty = new Map<string, GridCellRow[]>();
    for (const cell of grid.cells) if (dates.has(cell.date)) byProperty.set(cell.property_uid, [...(byProperty.get(cell.property_uid) ?? []), cell]);
    return grid.properties.map((property) => ({ property, cells: byProperty.get(property.uid) ?? [] }));
  }

  private body(c: CalendarChange, propertyUid: string, cells: readonly GridCellRow[]) {
    if (!changesSomething(c)) throw badParam('price_mode', 'choose something to change: a price, availability, a stay rule or notes');
    return setCalendarBatchBodySchema(this.config.calendar.maxDays).parse({ property_uid: propertyUid, days: cells.map((cell) => batchDay(c, cell)) });
  }

  /** The dry run of the change on every property: per date, now -> after, and the warnings. Nothing is stored. */
  async preview(companyUid: string, c: CalendarChange, userUid: string): Promise<PropertyPreview[]> {
    const current = await this.current(companyUid, c);
    return Promise.all(
      current.map(async ({ property, cells }) => {
        const answer = await this.calendar.submitBatch(companyUid, this.body(c, property.uid, cells), { tokenUid: `console:${userUid}`, userUid }, undefined, true);
        const preview = (answer.data as { preview?: Record<string, PreviewDay> }).preview ?? {};
        const dates = cells.map((now): PreviewDate => {
          const next = preview[now.date] ?? null;
          const big = next !== null && now.price !== null && now.price > 0 && next.price !== null && Math.abs((next.price - now.price) / now.price) * 100 > BIG_CHANGE_PERCENT;
          return { date: now.date, now, next, warning: answer.data.warnings[now.date] ?? null, big };
        });
        return { property, dates };
      }),
    );
  }

  /** The change for real, one batch per property through the submission path, named after the user. */
  async apply(companyUid: string, c: CalendarChange, userUid: string): Promise<{ requestUids: string[]; skipped: number }> {
    const current = await this.current(companyUid, c);
    const requestUids: string[] = [];
    let skipped = 0;
    // In property order, one after another: each batch takes its sequence numbers as submitted.
    for (const { property, cells } of current) {
      const answer = await this.calendar.submitBatch(companyUid, this.body(c, property.uid, cells), { tokenUid: `console:${userUid}`, userUid });
      requestUids.push(...answer.data.request_uids);
      skipped += Object.keys(answer.data.warnings).length;
    }
    this.logger.info({ companyUid, userUid, properties: c.property_uids.length, requestUids }, 'calendar changed in the console');
    return { requestUids, skipped };
  }
}

/** Whether the change sets any field at all. */
export function changesSomething(c: CalendarChange): boolean {
  return (
    c.price_mode !== 'keep' ||
    c.availability !== 'keep' ||
    c.min_stay !== undefined ||
    c.max_stay !== undefined ||
    c.notes !== undefined ||
    c.clear_notes !== undefined ||
    c.closed_to_arrival !== undefined ||
    c.closed_to_departure !== undefined
  );
}
