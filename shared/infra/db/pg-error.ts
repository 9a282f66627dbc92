/** The Postgres error under whatever wrapped it (Drizzle wraps query errors in `cause`). */
export interface PgError {
  code: string;
  constraint?: string;
  detail?: string;
  message: string;
}

export function pgErrorOf(err: unknown, depth = 0): PgError | undefined {
  if (depth > 5 || typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; constraint_name?: unknown; detail?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
    return {
      code: e.code,
      ...(typeof e.constraint_name === 'string' ? { constraint: e.constraint_name } : {}),
      ...(typeof e.detail === 'string' ? { detail: e.detail } : {}),
      message: typeof e.message === 'string' ? e.message : e.code,
    };
  }
  return pgErrorOf(e.cause, depth + 1);
}

/** 23P01: an exclusion constraint refused the row (bookings_no_overlap: the nights are held). */
export const isOverlapRefusal = (err: unknown) => pgErrorOf(err)?.code === '23P01';
