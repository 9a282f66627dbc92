import type { Scope } from '../auth/index.js';
import type { Db } from '../../infra/db/client.js';
import type { ChangeKind } from '../../infra/db/schema/change-kinds.js';

/*
 * How the feed (and the webhook fan-out drawn from it) reads the object a change names. The feed
 * knows no noun: each noun provides the reader of its kind (its `*.objects.ts`), and the
 * composition root registers them (shared/app/change-readers.ts).
 */

/** Objects of one kind by uid, as their list method shows them to a token of `scopes`. */
export type ObjectReader = (db: Db, companyUid: string, uids: readonly string[], scopes: readonly Scope[]) => Promise<Map<string, unknown>>;

/** The days `dates` of each property (key `<property_uid>/<date>`), read as get-calendar-data reads them. */
export type DayReader = (db: Db, companyUid: string, byProperty: Map<string, string[]>) => Promise<Map<string, unknown>>;

export interface ChangeReaders {
  /** The reader of every kind that has one; a kind without a reader shows `object: null`. */
  objects: Partial<Record<Exclude<ChangeKind, 'calendar_day'>, ObjectReader>>;
  /** calendar_day changes: one entry per date. */
  days: DayReader;
}
