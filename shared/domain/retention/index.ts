/*
 * retention: the nightly pruning of finished requests, idempotency keys and settled webhook
 * events. The public surface of the noun.
 *   retention.repository.ts  batched deletes, VACUUM, the busy webhook tables vacuumed once enough is dead, stale statistics analyzed
 *   retention.service.ts     RetentionService: prune everything due, in batches
 */
export * from './retention.repository.js';
export * from './retention.service.js';
