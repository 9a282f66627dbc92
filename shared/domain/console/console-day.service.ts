import type { Infra } from '../../infra/infra.js';
import type { PageMeta } from '../../infra/http/wire.js';
import type { Booking, BookingsService } from '../bookings/index.js';
import { BaseService } from '../service.js';
import { BOOKINGS_PAGE, type BookingContextRow, type BookingListRow, type BookingSearch } from './console-bookings.repository.js';
import type { ConsoleTaskRow, PropertyOption, TaskSearch, TeamMemberOption } from './console-tasks.repository.js';
import type { ConsoleDayRepository } from './console.repository.js';
import type {
  FailingWebhookRow,
  TodayStayRow,
  TodayTaskRow,
  WaitingCounts,
  WaitingProposalRow,
  WaitingRequestRow,
  WaitingThreadRow,
} from './console-today.repository.js';

/** How many of each waiting kind Today lists (its count says how many there are in all). */
export const TODAY_LIST_LIMIT = 10;

export interface TodayView {
  stays: TodayStayRow[];
  tasks: TodayTaskRow[];
  requests: WaitingRequestRow[];
  proposals: WaitingProposalRow[];
  threads: WaitingThreadRow[];
  webhooks: FailingWebhookRow[];
  team: TeamMemberOption[];
}

export interface BookingView {
  booking: Booking;
  context: BookingContextRow;
  tasks: ConsoleTaskRow[];
}

/**
 * The reads behind Today, Bookings and Tasks (issue 41), each a fixed number of statements run
 * together, every one scoped to the signed-in user's company. Task changes go through
 * TasksService.update (update-task's service and its If-Match), not through here.
 */
export class ConsoleDayService extends BaseService {
  constructor(
    infra: Infra,
    /** Bookings as a token reads them (door code, guidebook link). */
    private readonly bookingsService: BookingsService,
    private readonly repo: ConsoleDayRepository,
  ) {
    super(infra);
  }

  /** The navigation's counts: one statement, on every page. */
  waiting(companyUid: string): Promise<WaitingCounts> {
    return this.repo.selectWaitingCounts(this.db, companyUid);
  }

  /** Today: seven statements at once (the counts come with the navigation). */
  async today(companyUid: string): Promise<TodayView> {
    const [stays, tasks, requests, proposals, threads, webhooks, team] = await Promise.all([
      this.repo.selectTodayStays(this.db, companyUid),
      this.repo.selectTodayTasks(this.db, companyUid),
      this.repo.selectWaitingRequests(this.db, companyUid, this.config.reservations.requestHours, TODAY_LIST_LIMIT),
      this.repo.selectWaitingProposals(this.db, companyUid, TODAY_LIST_LIMIT),
      this.repo.selectWaitingThreads(this.db, companyUid, TODAY_LIST_LIMIT),
      this.repo.selectFailingWebhooks(this.db, companyUid),
      this.repo.selectTeamMemberOptions(this.db, companyUid),
    ]);
    return { stays, tasks, requests, proposals, threads, webhooks, team };
  }

  /** A page of 25 bookings matching the search: one statement. */
  async bookings(companyUid: string, search: BookingSearch): Promise<{ data: BookingListRow[]; meta: PageMeta }> {
    const rows = await this.repo.selectBookingSearch(this.db, companyUid, search);
    return { data: rows.slice(0, BOOKINGS_PAGE), meta: { page: search.page, has_next_page: rows.length > BOOKINGS_PAGE } };
  }

  /**
   * One booking as a token with smart-locks reads it (its door code, or its property's: what the
   * API shows), its names and thread, and its property's tasks from check-in day to check-out day.
   * Undefined when it is not the company's.
   */
  async booking(companyUid: string, bookingUid: string): Promise<BookingView | undefined> {
    const [row, context] = await Promise.all([this.repo.selectBookingRow(this.db, companyUid, bookingUid), this.repo.selectBookingContext(this.db, companyUid, bookingUid)]);
    if (!row || !context) return undefined;
    const [[booking], tasks] = await Promise.all([
      this.bookingsService.asShown(companyUid, [row], ['smart-locks']),
      this.repo.selectConsoleTasks(this.db, companyUid, { property_uid: row.propertyUid, from: row.localCheckinDttm.slice(0, 10), to: row.localCheckoutDttm.slice(0, 10) }),
    ]);
    return { booking: booking!, context, tasks };
  }

  /** Tasks of a window with the team to give them to: two statements at once. */
  async tasks(companyUid: string, search: TaskSearch): Promise<{ tasks: ConsoleTaskRow[]; team: TeamMemberOption[] }> {
    const [tasks, team] = await Promise.all([this.repo.selectConsoleTasks(this.db, companyUid, search), this.repo.selectTeamMemberOptions(this.db, companyUid)]);
    return { tasks, team };
  }

  /** The company's properties by name (the filters' choices): one statement. */
  propertyOptions(companyUid: string): Promise<PropertyOption[]> {
    return this.repo.selectPropertyOptions(this.db, companyUid);
  }

  /** The company's team members by name: one statement. */
  team(companyUid: string): Promise<TeamMemberOption[]> {
    return this.repo.selectTeamMemberOptions(this.db, companyUid);
  }

  /** One task with its names and the team: undefined task when it is not the company's. */
  async task(companyUid: string, taskUid: string): Promise<{ task: ConsoleTaskRow | undefined; team: TeamMemberOption[] }> {
    const [task, team] = await Promise.all([this.repo.selectConsoleTask(this.db, companyUid, taskUid), this.repo.selectTeamMemberOptions(this.db, companyUid)]);
    return { task, team };
  }
}
