import { and, asc, getTableColumns } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Sql } from '../../infra/db/client.js';
import { bookings, tasks } from '../../infra/db/schema/index.js';
import { bookingsOrder, bookingsWhere, type BookingsFilter } from '../bookings/index.js';
import { tasksWhere, type TasksQuery } from '../tasks/index.js';
import { byUid } from '../../infra/db/page.js';

/** Rows per cursor fetch: what the API holds of a report at a time (about 1 MB of bookings). */
export const REPORT_BATCH_ROWS = 1000;

/** Marks the reports' statements, so an operator (and a test) finds them in pg_stat_activity. */
export const REPORT_STATEMENT_TAG = '/* csv-report */';

/** Every booking of the list's filters, in the list's order (no page): the statement, unexecuted. */
export function bookingsReportQuery(db: Db, companyUid: string, q: BookingsFilter) {
  return db
    .select()
    .from(bookings)
    .where(and(...bookingsWhere(companyUid, q)))
    .orderBy(...bookingsOrder(bookings, q.order_by_created_dttm === true));
}

/** Every task of the list's filters, in the list's order (local_start_dttm, task_uid). */
export function tasksReportQuery(db: Db, companyUid: string, q: Omit<TasksQuery, 'page'>) {
  return db
    .select()
    .from(tasks)
    .where(and(...tasksWhere(companyUid, q)))
    .orderBy(asc(tasks.localStartDttm), byUid(tasks.taskUid));
}

/** A Drizzle query, unexecuted. */
type Statement = { toSQL(): { sql: string; params: unknown[] } };

/**
 * Runs a select of `table`'s rows through a server-side cursor (postgres.js `cursor`: one portal,
 * `batchRows` rows per fetch, one snapshot for the whole report) and yields them in batches, as
 * Drizzle would map them. Ending the iteration early (return, throw) closes the portal; `signal`
 * cancels a statement still computing its first rows (a sort) when the client has gone.
 */
export async function* cursorRows<T extends PgTable>(
  client: Sql,
  statement: Statement,
  table: T,
  batchRows = REPORT_BATCH_ROWS,
  signal?: AbortSignal,
): AsyncGenerator<T['$inferSelect'][]> {
  const columns = Object.entries(getTableColumns(table));
  const { sql: text, params } = statement.toSQL();
  const query = client.unsafe(`${REPORT_STATEMENT_TAG} ${text}`, params as never[]);
  const cancel = () => void query.cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    for await (const raw of query.cursor(batchRows)) {
      // Rows flow: from here ending the iteration closes the portal. A cancel now would go out on
      // a connection of its own and stop whatever the backend runs when it lands, which, once the
      // portal is closed and the connection back in the pool, is another request's query.
      signal?.removeEventListener('abort', cancel);
      yield raw.map((r) => {
        const row: Record<string, unknown> = {};
        for (const [key, col] of columns) {
          const v: unknown = r[col.name];
          row[key] = v === null || v === undefined ? null : col.mapFromDriverValue(v);
        }
        return row;
      });
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/** The repository its service is given by the composition root (shared/app/services.ts). */
export const reportsRepository = { bookingsReportQuery, tasksReportQuery, cursorRows };
export type ReportsRepository = typeof reportsRepository;
