import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../infra/db/client.js';
import { changes } from '../../infra/db/schema/index.js';
import type { ChangeKind, ChangeOp } from '../../infra/db/schema/change-kinds.js';

/**
 * One change of one object, as a write path records it.
 * - `company`: the tenant (the feed's wall).
 * - `kind` and `objectUid`: what changed (for `calendar_day`, the property's uid plus `dates`).
 * - `op`: `upsert` (default: created or changed) or `delete` (gone; the feed shows `object: null`).
 * - `event`: the webhook event type the change is, when it is one (`booking.created`,
 *   `booking.updated`, `booking.cancelled`, `task.updated`, `calendar.days.changed`,
 *   `message.received`, `message.status`, `proposal.reviewed`); the feed itself does not need it.
 */
export interface ChangeInput {
  company: string;
  kind: ChangeKind;
  objectUid: string;
  op?: ChangeOp;
  event?: string;
  /** calendar_day only: the dates (YYYY-MM-DD) written. */
  dates?: readonly string[];
}

/**
 * Records changes for the change feed (and, later, webhooks: one outbox). THE RULE: call it with
 * the transaction that makes the change, AFTER the write that changes the object (the write locks
 * the object's row, so a later writer of the same object records after this one commits, which is
 * what keeps each object's changes in commit order). Nothing else is needed: the feed position is
 * given after commit by the stamper (stampChanges, changes.repository.ts).
 *
 *     await db.transaction(async (tx) => {
 *       await tx.update(bookings).set(...).where(...);
 *       await recordChange(tx, { company, kind: 'booking', objectUid: uid, event: 'booking.updated' });
 *     });
 *
 * A write that is one SQL statement (the calendar apply) inserts into `changes` in a CTE instead,
 * ordered after its write (see calendar.repository.ts applyRequest).
 */
export async function recordChanges(tx: Executor, rows: readonly ChangeInput[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((r) => ({
    companyUid: r.company,
    kind: r.kind,
    objectUid: r.objectUid,
    op: r.op ?? 'upsert',
    event: r.event ?? null,
    dates: r.kind === 'calendar_day' ? [...(r.dates ?? [])] : null,
  }));
  if (values.length <= VALUES_ROWS) {
    await tx.insert(changes).values(values);
    return;
  }
  // Many rows (an import, the demo seed): one jsonb parameter, not a VALUES list of six parameters
  // a row (5,000 of those took longer than inserting the bookings they announce). In the order
  // given (`with ordinality`), so ids follow it as a VALUES list's do.
  await tx.execute(sql`insert into ${changes} (company_uid, kind, object_uid, op, event, dates)
    select r.company_uid, r.kind, r.object_uid, r.op, r.event, r.dates
      from rows from (jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as ("companyUid" text, kind text, "objectUid" text, op text, event text, dates jsonb)) with ordinality
           as r(company_uid, kind, object_uid, op, event, dates, n)
     order by r.n`);
}

/** Up to this many rows, a change record is a plain VALUES insert (the common case: one object). */
const VALUES_ROWS = 100;

export function recordChange(tx: Executor, row: ChangeInput): Promise<void> {
  return recordChanges(tx, [row]);
}

/**
 * The same record as a SQL fragment for one-statement writers: `insert into changes ... select`
 * from a CTE. `from` must yield company_uid, object_uid (and `dates` jsonb for calendar_day).
 */
export function recordChangesSql(kind: ChangeKind, event: string | null, from: SQL): SQL {
  return sql`insert into changes (company_uid, kind, object_uid, op, event, dates)
    select f.company_uid, ${kind}, f.object_uid, 'upsert', ${event}::text, ${kind === 'calendar_day' ? sql`f.dates` : sql`null::jsonb`}
      from ${from} f`;
}
