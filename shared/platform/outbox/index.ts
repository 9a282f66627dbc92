/*
 * outbox: the vocabulary of webhook events, shared by the nouns that write events and by the
 * delivery. The public surface of the piece.
 *   event-types.ts  the event types, the kind of object each reports, subscription patterns (JS and SQL)
 */
export * from './event-types.js';
