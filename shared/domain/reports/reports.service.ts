import type { Writable } from 'node:stream';
import type { Scope } from '../auth/index.js';
import { bookingSchema, type BookingsService } from '../bookings/index.js';
import { taskSchema, taskToWire } from '../tasks/index.js';
import { bookings, tasks } from '../../infra/db/schema/index.js';
import type { Sql } from '../../infra/db/client.js';
import { AppError, ErrorCode } from '../../infra/errors.js';
import type { Infra } from '../../infra/infra.js';
import { BaseService } from '../service.js';
import { csvColumnsOf, writeCsv, type CsvColumn } from './csv.js';
import type { ReportsRepository } from './reports.repository.js';
import type { BookingsReportFilter, TasksReportFilter } from './reports.schema.js';

/**
 * Reports streaming at once in one API process. Each holds a database connection for as long as
 * its client takes to read it (a cursor), so a few slow downloads must not take the pool from
 * every other method. One more is refused with 429 code 16 and Retry-After. Shared fairly between
 * companies (issue 39): a company already writing a report never takes the last free slot, so one
 * company holds at most MAX_CONCURRENT_REPORTS - 1 of them and another company always finds one
 * unless several companies are writing at once.
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
  /** Slots held per company (an entry only while it holds one). */
  private readonly held = new Map<string, number>();

  constructor(
    infra: Infra,
    private readonly bookingsService: BookingsService,
    private readonly repo: ReportsRepository,
  ) {
    super(infra);
    this.sql = infra.database.sql;
  }

  /** The bookings as the list shows them; door_access_code only for a token with smart-locks. */
  async writeBookings(companyUid: string, filter: BookingsReportFilter, scopes: readonly Scope[], sink: ReportSink): Promise<void> {
    const withDoorCode = scopes.includes('smart-locks');
    // The report keeps its columns of before issue 36: guidebook links and insurance policies are
    // read from the list (docs/api.md "The remaining iGMS v2 methods").
    const columns = csvColumnsOf(bookingSchema, withDoorCode ? ['guidebook_link', 'insurance_policy'] : ['door_access_code', 'guidebook_link', 'insurance_policy']);
    const statement = this.repo.bookingsReportQuery(this.db, companyUid, filter);
    const { bookingsService, sql, repo } = this;
    async function* wire(signal?: AbortSignal) {
      for await (const rows of repo.cursorRows(sql, statement, bookings, undefined, signal)) yield bookingsService.asShown(companyUid, rows, scopes);
    }
    await this.write(companyUid, wire(sink.signal), columns, sink);
  }

  /** The tasks as the list shows them. */
  async writeTasks(companyUid: string, filter: TasksReportFilter, sink: ReportSink): Promise<void> {
    const statement = this.repo.tasksReportQuery(this.db, companyUid, filter);
    const { sql, repo } = this;
    async function* wire(signal?: AbortSignal) {
      for await (const rows of repo.cursorRows(sql, statement, tasks, undefined, signal)) yield rows.map(taskToWire);
    }
    await this.write(companyUid, wire(sink.signal), taskColumns, sink);
  }

  /**
   * Reads the first batch before anything is written, so a failure up to then (a refused statement,
   * the database down) is an ordinary JSON error; after it, a failure cuts the answer short.
   */
  private async write<T extends object>(companyUid: string, batches: AsyncGenerator<T[]>, columns: CsvColumn[], sink: ReportSink): Promise<void> {
    const mine = this.held.get(companyUid) ?? 0;
    const free = MAX_CONCURRENT_REPORTS - this.running;
    if (free <= 0 || (mine > 0 && free <= 1)) {
      await batches.return(undefined);
      const why = free <= 0 ? `At most ${MAX_CONCURRENT_REPORTS} reports are written at once` : `This company is writing ${mine} report${mine === 1 ? '' : 's'} already and the last slot is kept for others`;
      throw new AppError(ErrorCode.rateLimited, `${why}; try again shortly`, { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });
    }
    this.running++;
    this.held.set(companyUid, mine + 1);
    try {
      const first = await batches.next();
      sink.begin();
      await writeCsv(resumed(first, batches), columns, sink.out);
    } finally {
      this.running--;
      const left = (this.held.get(companyUid) ?? 1) - 1;
      if (left > 0) this.held.set(companyUid, left);
      else this.held.delete(companyUid);
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
