/*
 * idempotency: the Idempotency-Key of write methods. The public surface of the noun.
 *   idempotency.ts             idempotent(): claim the key, run once, store and replay the answer
 *   idempotency.repository.ts  idempotency_keys: claim, store, prune
 */
export * from './idempotency.js';
export * from './idempotency.repository.js';
