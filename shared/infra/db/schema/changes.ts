import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { changeKinds, changeOps } from './change-kinds.js';
import { tstz } from './columns.js';
import { companies } from './inventory.js';

/**
 * The change feed's records (docs/api.md "Told when anything changes"): one row per change of an
 * object, written by recordChanges (shared/domain/changes/record.ts) in the transaction that makes
 * the change. `id` is the insertion order; `pos` the feed position, given by the stamper to
 * committed rows only, in id order, so a reader following positions never skips a row that
 * committed late (see stampChanges, shared/domain/changes/changes.repository.ts). Rows are read through their object (the list method's
 * wire form at read time), so a write costs one narrow insert.
 */
export const changes = pgTable(
  'changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    pos: bigint('pos', { mode: 'number' }),
    companyUid: text('company_uid')
      .notNull()
      .references(() => companies.uid),
    kind: text('kind', { enum: changeKinds }).notNull(),
    /** The object's uid; for a calendar_day change, the property's (its dates are in `dates`). */
    objectUid: text('object_uid').notNull(),
    op: text('op', { enum: changeOps }).notNull().default('upsert'),
    /** The webhook event type this change is (booking.created, task.updated, ...), if any. */
    event: text('event'),
    /** calendar_day: the dates (YYYY-MM-DD) the change wrote, in date order. */
    dates: jsonb('dates').$type<string[]>(),
    changedAt: tstz('changed_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('changes_pos_idx').on(t.pos),
    index('changes_company_pos_idx').on(t.companyUid, t.pos),
    // The stamper's work list: rows not yet given a position, in insertion order.
    index('changes_unstamped_idx')
      .on(t.id)
      .where(sql`pos is null`),
    check('changes_dates_only_days', sql`(kind = 'calendar_day') = (dates is not null)`),
  ],
);

/**
 * One row (id 1): the last feed position handed out (`head`) and the highest position the
 * retention prune removed (`pruned_through`; a cursor below it is expired, 410).
 */
export const changeFeed = pgTable('change_feed', {
  id: integer('id').primaryKey(),
  head: bigint('head', { mode: 'number' }).notNull().default(0),
  prunedThrough: bigint('pruned_through', { mode: 'number' }).notNull().default(0),
});
