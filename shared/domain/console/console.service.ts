import { badParam } from '../../infra/errors.js';
import { addDays, localDate } from '../../infra/time.js';
import { unknownThread } from '../messaging/index.js';
import { unknownProperty } from '../properties/index.js';
import { BaseService } from '../service.js';
import type { Infra } from '../../infra/infra.js';
import { provenanceFields, type MonthDayRow, type ProvenanceRow } from './console-calendar.repository.js';
import type { InboxFilter, InboxMessageRow, InboxThreadRow } from './console-inbox.repository.js';
import type { PropertyHeadRow, PropertyListRow, RequestListRow } from './console-lists.repository.js';
import type { ConsoleRepository } from './console.repository.js';

/** What the Properties page shows of one property's month. */
export interface PropertyMonth {
  property: PropertyHeadRow;
  /** YYYY-MM of the grid, and of the months before and after it. */
  month: string;
  prev: string;
  next: string;
  /** Today in the property's zone (YYYY-MM-DD): earlier dates are past. */
  today: string;
  days: MonthDayRow[];
}

export interface DateProvenance {
  property: PropertyHeadRow;
  date: string;
  fields: ProvenanceRow[];
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** How many requests the Requests page lists. */
export const RECENT_REQUESTS = 50;

/** The month after (or before, `by` = -1) a YYYY-MM month. */
export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return d.toISOString().slice(0, 7);
}

/**
 * The reads behind the console's pages, each in a small fixed number of statements (the page's
 * server time stays flat whatever the company's size), every one scoped to the signed-in user's
 * company. Writes go through the nouns' own services (proposals, reservation requests, messaging).
 */
export class ConsoleService extends BaseService {
  constructor(
    infra: Infra,
    private readonly repo: ConsoleRepository,
  ) {
    super(infra);
  }

  /** The Properties list: one statement. */
  properties(companyUid: string): Promise<PropertyListRow[]> {
    return this.repo.selectPropertyList(this.db, companyUid);
  }

  /** A property's header: one statement; 404 (code 11) when it is not the company's. */
  async property(companyUid: string, propertyUid: string): Promise<PropertyHeadRow> {
    const head = await this.repo.selectPropertyHead(this.db, companyUid, propertyUid);
    if (!head) throw unknownProperty(propertyUid);
    return head;
  }

  /**
   * One month of a property (default: the current month in its zone): the header, then the days,
   * two statements. A month that is not YYYY-MM is a bad parameter.
   */
  async month(companyUid: string, propertyUid: string, month?: string): Promise<PropertyMonth> {
    if (month !== undefined && !MONTH.test(month)) throw badParam('month', 'month must be YYYY-MM');
    const property = await this.property(companyUid, propertyUid);
    const today = localDate(property.time_zone);
    const m = month ?? today.slice(0, 7);
    const from = `${m}-01`;
    const to = addDays(`${shiftMonth(m, 1)}-01`, -1);
    const days = await this.repo.selectMonthDays(this.db, companyUid, propertyUid, from, to);
    return { property, month: m, prev: shiftMonth(m, -1), next: shiftMonth(m, 1), today, days };
  }

  /** Who set each field of one date, and through which app: two statements run together. */
  async provenance(companyUid: string, propertyUid: string, date: string): Promise<DateProvenance> {
    if (!DATE.test(date) || Number.isNaN(Date.parse(date))) throw badParam('date', 'date must be YYYY-MM-DD');
    const [property, fields] = await Promise.all([this.property(companyUid, propertyUid), this.repo.selectProvenance(this.db, companyUid, propertyUid, date)]);
    return { property, date, fields: fields.length > 0 ? fields : neverSet() };
  }

  /** The Requests page (and each of its live refreshes): one statement. */
  requests(companyUid: string, limit = RECENT_REQUESTS, propertyUid?: string): Promise<RequestListRow[]> {
    return this.repo.selectRecentRequests(this.db, companyUid, limit, propertyUid);
  }

  /** The Inbox as `userUid` reads it (unread, needs reply), filtered: the company's most recent threads, one statement. */
  threads(companyUid: string, userUid: string, filter: InboxFilter = {}, limit = INBOX_THREADS): Promise<InboxThreadRow[]> {
    return this.repo.selectInboxThreads(this.db, companyUid, userUid, limit, filter);
  }

  /** The Inbox's filter choices: the company's properties and its threads' platforms, one statement. */
  inboxFilterChoices(companyUid: string): ReturnType<ConsoleRepository['selectInboxFilterChoices']> {
    return this.repo.selectInboxFilterChoices(this.db, companyUid);
  }

  /**
   * One thread and its messages (two statements run together); 404 (code 11) when not the
   * company's. `markRead`: the person has opened it, so their marker moves to its newest message
   * (one more statement); the thread is answered as it was before (unread as they found it).
   */
  async thread(companyUid: string, userUid: string, threadId: number, markRead = false): Promise<InboxThread> {
    const [thread, messages] = await Promise.all([this.repo.selectInboxThread(this.db, companyUid, userUid, threadId), this.repo.selectInboxMessages(this.db, companyUid, threadId)]);
    if (!thread) throw unknownThread(threadId);
    const newest = messages.reduce((max, m) => Math.max(max, m.id), 0);
    if (markRead && newest > 0) await this.repo.upsertThreadRead(this.db, companyUid, userUid, threadId, newest);
    return { thread, messages };
  }

  /** Guest and property names of bookings of the company (the reservation requests page), one statement. */
  bookingNames(companyUid: string, bookingUids: readonly string[]): ReturnType<ConsoleRepository['selectBookingNames']> {
    return this.repo.selectBookingNames(this.db, companyUid, bookingUids);
  }
}

/** How many threads the Inbox lists. */
export const INBOX_THREADS = 50;

/** One thread of the Inbox with its messages, oldest first. */
export interface InboxThread {
  thread: InboxThreadRow;
  messages: InboxMessageRow[];
}

/** A date no request ever wrote: every field reads as the property's default. */
function neverSet(): ProvenanceRow[] {
  return provenanceFields.map((field) => ({
    field,
    value: null,
    seq: 0,
    request_uid: null,
    request_status: null,
    request_error: null,
    app_uid: null,
    app_name: null,
    user_name: null,
    created_dttm: null,
    finished_dttm: null,
    days_total: null,
    days_applied: null,
    warnings: null,
  }));
}
