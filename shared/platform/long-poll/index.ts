/*
 * long-poll: waiting clients woken by Postgres NOTIFY (get-request-status, message-status and
 * get-changes with `wait`). The public surface of the piece.
 *   hub.ts       the hub of one channel: waiters keyed by uid, one LISTEN connection, the re-check
 *   channels.ts  the NOTIFY channels and the longest wait
 */
export * from './hub.js';
export * from './channels.js';
