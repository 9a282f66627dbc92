/*
 * outbox: where webhook events are created, and their vocabulary, shared by the nouns that write
 * events and by the delivery. The public surface of the piece.
 *   event-types.ts  the event types, the kind of object each reports, subscription patterns (JS and SQL)
 *   outbox.ts       the two writers of webhook_events: a request's outcome, the change feed's fan-out
 */
export * from './event-types.js';
export * from './outbox.js';
