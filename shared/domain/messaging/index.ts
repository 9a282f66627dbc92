/*
 * messaging: threads with guests, messages to them (sent by the workers' message pumps), their statuses,
 * and guest replies from channel connectors. The public surface of the noun.
 *   messaging.schema.ts     the wire: get-threads (iGMS camelCase), message-booking-guest, message-status
 *   messaging.wire.ts       get-threads' one filter, rows as the wire shows them
 *   threads.repository.ts   threads: a page, their messages, the thread of a booking
 *   messages.repository.ts  messages: append, the pump's claim, status moves, the sweep's claim
 *   messaging.service.ts    MessagingService
 *   messaging.inbound.ts    guest replies POSTed by connectors: signature, dedupe, append
 *   messaging.objects.ts    threads and messages as the change feed shows them
 *   connectors.service.ts   ConnectorsService: the CLI's channel set/show/remove/list (webhooks' URL rules)
 *   messaging.transfer.ts   threads and messages as `cli export` / `cli import` lines (shared/domain/transfer)
 */
export * from './messaging.schema.js';
export * from './messaging.wire.js';
export * from './threads.repository.js';
export * from './messages.repository.js';
export * from './messaging.service.js';
export * from './messaging.inbound.js';
export * from './messaging.objects.js';
export * from './connectors.repository.js';
export { messagingRepository, type MessagingRepository } from './messaging.repository.js';
export * from './connectors.service.js';
export * from './messaging.transfer.js';
