import { z } from 'zod';
import { bookingsQuerySchema } from '../bookings/index.js';
import { tasksQuerySchema } from '../tasks/index.js';
import { badParam } from '../../infra/errors.js';

/*
 * The filters of the CSV reports: exactly those of GET /api/v1/bookings and GET /api/v1/tasks
 * (their schemas, without `page`: a report is every match). They come from the query or from a
 * JSON body; where docs/api.md is silent (decided here):
 * - the body takes the same parameters with the same text values as the query
 *   (`"platform_type": "airbnb,vrbo"`), and also what a JSON client naturally writes: a list as an
 *   array of strings, a boolean or number as itself; null or "" is the parameter absent;
 * - a parameter given both in the query and in the body is a code-11 error naming it (neither wins
 *   silently).
 */

/** A JSON body value as the query would have written it; undefined where it is absent. */
function asQueryText(v: unknown): unknown {
  if (v === null || v === '') return undefined;
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.length === 0 ? undefined : v.join(',');
  return v;
}

/** The body form of a query schema: each field reads a JSON value as its query text. */
function bodyOf<S extends z.ZodObject>(query: S) {
  const shape = Object.fromEntries(Object.entries(query.shape).map(([k, field]) => [k, z.preprocess(asQueryText, field as z.ZodType)]));
  return z.object(shape as { [K in keyof S['shape']]: S['shape'][K] }).optional();
}

export const bookingsReportQuerySchema = bookingsQuerySchema.omit({ page: true });
export const tasksReportQuerySchema = tasksQuerySchema.omit({ page: true });
export const bookingsReportBodySchema = bodyOf(bookingsReportQuerySchema);
export const tasksReportBodySchema = bodyOf(tasksReportQuerySchema);

export type BookingsReportFilter = z.output<typeof bookingsReportQuerySchema>;
export type TasksReportFilter = z.output<typeof tasksReportQuerySchema>;

/** The query's and the body's filters as one; a parameter in both is refused, naming it. */
export function mergeFilters<F extends object>(query: F, body: Partial<F> | undefined): F {
  const merged: Record<string, unknown> = { ...(query as Record<string, unknown>) };
  for (const [k, v] of Object.entries(body ?? {})) {
    if (v === undefined) continue;
    if (merged[k] !== undefined) throw badParam(k, `Invalid parameter ${k}: given both in the query and in the body; send it once`);
    merged[k] = v;
  }
  return merged as F;
}
