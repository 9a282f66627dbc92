/*
 * console: the reads behind the console's pages (docs/api.md "Accounts and the console"). The
 * public surface of the noun; code outside this folder imports from here.
 *   console.service.ts             ConsoleService: properties, a property's month, a date's
 *                                  provenance, recent requests (each a fixed number of statements)
 *   console-calendar.repository.ts the month grid and the provenance statements
 *   console-lists.repository.ts    the property list, a property's header, recent requests,
 *                                  booking names, the calendar control flag (with its change)
 *   console-inbox.repository.ts    the Inbox: threads newest first, one thread's messages
 *   console-day.service.ts         ConsoleDayService: Today, the navigation's counts, Bookings, Tasks
 *   console-today.repository.ts    today's stays and tasks, what waits (and its counts)
 *   console-bookings.repository.ts the bookings search and one booking's names and thread
 *   console-tasks.repository.ts    tasks of a window with names, one task, the team
 *   console-multicalendar.repository.ts  the multi-calendar grid (every property x dates, one statement)
 *   calendar-change.service.ts     CalendarChangeService: a change over dates and properties, previewed then applied
 *   console.repository.ts          what each of the three services is given: the statements it uses, as one object
 */
export * from './console.service.js';
export * from './console-calendar.repository.js';
export * from './console-lists.repository.js';
export * from './console-inbox.repository.js';
export * from './console-day.service.js';
export * from './console-today.repository.js';
export * from './console-bookings.repository.js';
export * from './console-tasks.repository.js';
export * from './console-multicalendar.repository.js';
export * from './calendar-change.service.js';
export * from './console.repository.js';
