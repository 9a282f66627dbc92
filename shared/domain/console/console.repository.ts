/*
 * The repositories the console's services are given by the composition root
 * (shared/app/services.ts): the read statements each uses, as one object (a test may give its own).
 */
import { selectBookingContext, selectBookingRow, selectBookingSearch } from './console-bookings.repository.js';
import { selectMonthDays, selectProvenance } from './console-calendar.repository.js';
import { selectInboxFilterChoices, selectInboxMessages, selectInboxThread, selectInboxThreads, upsertThreadRead } from './console-inbox.repository.js';
import { selectBookingNames, selectPropertyHead, selectPropertyList, selectRecentRequests } from './console-lists.repository.js';
import { selectCalendarGrid } from './console-multicalendar.repository.js';
import { selectConsoleTask, selectConsoleTasks, selectPropertyOptions, selectTeamMemberOptions } from './console-tasks.repository.js';
import {
  selectFailingWebhooks,
  selectTodayStays,
  selectTodayTasks,
  selectWaitingCounts,
  selectWaitingProposals,
  selectWaitingRequests,
  selectWaitingThreads,
} from './console-today.repository.js';

/** ConsoleService's: the properties, a month, a date's provenance, requests, the Inbox. */
export const consoleRepository = {
  selectPropertyList,
  selectPropertyHead,
  selectMonthDays,
  selectProvenance,
  selectRecentRequests,
  selectInboxThreads,
  selectInboxFilterChoices,
  selectInboxThread,
  selectInboxMessages,
  upsertThreadRead,
  selectBookingNames,
};
export type ConsoleRepository = typeof consoleRepository;

/** ConsoleDayService's: Today, the navigation's counts, Bookings, Tasks. */
export const consoleDayRepository = {
  selectWaitingCounts,
  selectTodayStays,
  selectTodayTasks,
  selectWaitingRequests,
  selectWaitingProposals,
  selectWaitingThreads,
  selectFailingWebhooks,
  selectTeamMemberOptions,
  selectBookingSearch,
  selectBookingRow,
  selectBookingContext,
  selectConsoleTasks,
  selectConsoleTask,
  selectPropertyOptions,
};
export type ConsoleDayRepository = typeof consoleDayRepository;

/** CalendarChangeService's: the multi-calendar grid. */
export const calendarChangeRepository = { selectCalendarGrid };
export type CalendarChangeRepository = typeof calendarChangeRepository;
