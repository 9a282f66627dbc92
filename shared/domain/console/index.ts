/*
 * console: the reads behind the console's pages (docs/api.md "Accounts and the console"). The
 * public surface of the noun; code outside this folder imports from here.
 *   console.service.ts             ConsoleService: properties, a property's month, a date's
 *                                  provenance, recent requests (each a fixed number of statements)
 *   console-calendar.repository.ts the month grid and the provenance statements
 *   console-lists.repository.ts    the property list, a property's header, recent requests,
 *                                  booking names, the calendar control flag (with its change)
 *   console-inbox.repository.ts    the Inbox: threads newest first, one thread's messages
 */
export * from './console.service.js';
export * from './console-calendar.repository.js';
export * from './console-lists.repository.js';
export * from './console-inbox.repository.js';
