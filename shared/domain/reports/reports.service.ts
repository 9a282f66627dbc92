import type { Writable } from 'node:stream';
import type { Scope } from '../auth/index.js';
import { bookingSchema, bookingToWire, type BookingsService } from '../bookings/index.js';
import { taskSchema, taskToWire } from '../tasks/index.js';
import { bookings, tasks } from '../../infra/db/schema/index.js';
import type { Sql } from '../../infra/db/client.js';
import { AppError, ErrorCode } from '../../infra/errors.js';
import type { Infra } from '../../infra/infra.js';
import { BaseService } from '../service.js';
import { csvColumnsOf, writeCsv, type CsvColumn } from './csv.js';
import { bookingsReportQuery, cursorRows, tasksReportQuery } from './reports.repository.js';
import type { BookingsReportFilter, TasksReportFilter } from './reports.schema.js';

/**
 * Reports streaming at once in one API process. Each holds a database connection for as long as
 * its client takes to read it (a cursor), so a few slow downloads must not take the pool from
 * every other method. One more is refused with 429 code 16 and Retry-After.
 */
export const MAX_CONCURRENT_REPORTS = 3;
const RETRY_AFTER_SECONDS = 5;

/** Where a report goes: `begin` is called once the first rows were read (set the headers then). */
export interface ReportSink {
  out: Writable;
  begin(): void;
  /** Aborted when the client has gone: cancels a statement still computing its first rows. */
  signal?: AbortSignal;
}

const taskColumns = csvColumnsOf(taskSchema);

/** The CSV reports of bookings and tasks: every object the list's filters match, streamed. */
export class ReportsService extends BaseService {
  private readonly sql: Sql;
  private running = 0;

  constructor(
    infra: Infra,
    private readonly bookingsService: BookingsService,
  ) {
    super(infra);
    this.sql = infra.database.sql;
  }

  /** The bookings as the list shows them; door_access_code only for a token with smart-locks. */
  async writeBookings(companyUid: string, filter: BookingsReportFilter, scopes: readonly Scope[], sink: ReportSink): Promise<void> {
    const withDoorCode = scopes.includes('smart-locks');
    const columns = csvColumnsOf(bookingSchema, withDoorCode ? [] : ['door_access_code']);
    const statement = bookingsReportQuery(this.db, companyUid, filter);
    const { bookingsService, sql } = this;
    async function* wire(signal?: AbortSignal) {
      for await (const rows of cursorRows(sql, statement, bookings, undefined, signal)) {
        const shown = withDoorCode ? await bookingsService.withShownDoorCodes(companyUid, rows) : rows;
        yield shown.map((r) => bookingToWire(r, withDoorCode));
      }
    }
    await this.write(wire(sink.signal), columns, sink);
  }

  /** The tasks as the list shows them. */
  async writeTasks(companyUid: string, filter: TasksReportFilter, sink: ReportSink): Promise<void> {
    const statement = tasksReportQuery(this.db, companyUid, filter);
    const sql = this.sql;
    async function* wire(signal?: AbortSignal) {
      for await (const rows of cursorRows(sql, statement, tasks, undefined, signal)) yield rows.map(taskToWire);
    }
    await this.write(wire(sink.signal), taskColumns, sink);
  }

  /**
   * Reads the first batch before anything is written, so a failure up to then (a refused statement,
   * the database down) is an ordinary JSON error; after it, a failure cuts the answer short.
   */
  private async write<T extends object>(batches: AsyncGenerator<T[]>, columns: CsvColumn[], sink: ReportSink): Promise<void> {
    if (this.running >= MAX_CONCURRENT_REPORTS) {
      throw new AppError(ErrorCode.rateLimited, `At most ${MAX_CONCURRENT_REPORTS} reports are written at once; try again shortly`, {
        headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      });
    }
    this.running++;
    try {
      const first = await batches.next();
      sink.begin();
      await writeCsv(resumed(first, batches), columns, sink.out);
    } finally {
      this.running--;
      await batches.return(undefined);
    }
  }
}

/** The iteration of `rest` with its already-read first result put back in front. */
async function* resumed<T>(first: IteratorResult<T>, rest: AsyncIterator<T>): AsyncGenerator<T> {
  if (first.done) return;
  yield first.value;
  for (let r = await rest.next(); !r.done; r = await rest.next()) yield r.value;
}
