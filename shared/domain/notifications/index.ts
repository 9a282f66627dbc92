/*
 * notifications: owners and managers told by email when something waits for them (issue 42). The
 * public surface of the noun.
 *   notifications.events.ts      what waits, found in the rows that record it (each kind's finder)
 *   notifications.compose.ts     each kind's subject and body, and the daily digest's
 *   notifications.repository.ts  the notifications table (dedupe per person, kind, event), the sender's claim, settings
 *   notifications.service.ts     NotificationsService: sweep (find, digest, send), settings
 */
export * from './notifications.service.js';
export { notificationsRepository, type NotificationsRepository } from './notifications.repository.js';
export { notificationKinds, notificationModes, type NotificationKind, type NotificationMode } from '../../infra/db/schema/index.js';
