import { doublePrecision, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';

/** Idempotency-Key answers and rate-limit counters: what the API keeps to answer repeated or excessive requests. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    tokenUid: text('token_uid').notNull(),
    key: text('key').notNull(),
    companyUid: text('company_uid').notNull(),
    bodyHash: text('body_hash').notNull(),
    status: integer('status').notNull(),
    response: jsonb('response').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tokenUid, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/** One GCRA timestamp per rate-limited key (shared/ratelimit/rate-limiter.ts), for the no-Redis set-up. */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  /** Theoretical arrival time, epoch milliseconds (fractional: 60 s / limit need not be whole). */
  tat: doublePrecision('tat').notNull(),
});
