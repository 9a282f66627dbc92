import { sql } from 'drizzle-orm';
import type { Db } from '../../shared/infra/db/client.js';
import type { AppContext } from '../../shared/app/context.js';
import { recordChanges } from '../../shared/domain/changes/index.js';

/** Polls `cond` every 25 ms until it holds (the test's own timeout bounds it). */
export const until = async (cond: () => boolean | Promise<boolean>) => {
  while (!(await cond())) await new Promise((r) => setTimeout(r, 25));
};

/**
 * Records a change of `kind` (event type `event`) for each uid, as a write path would. `hoursOld`:
 * the changes are stamped that long ago in the same transaction, so no fan-out running meanwhile
 * (a worker woken by the commit) sees them new.
 */
export async function recordEvents(db: Db, company: string, kind: 'booking' | 'task', event: string, uids: readonly string[], opts: { hoursOld?: number } = {}) {
  await db.transaction(async (tx) => {
    await recordChanges(tx, uids.map((objectUid) => ({ company, kind, objectUid, event })));
    // now() is the transaction's start: the rows this transaction inserted, and no other.
    if (opts.hoursOld !== undefined)
      await tx.execute(sql`update changes set changed_at = now() - make_interval(hours => ${opts.hoursOld}) where object_uid in (${sql.join(uids.map((u) => sql`${u}`), sql`, `)}) and changed_at = now()`);
  });
}

/** Runs the fan-out now (the scheduled job does the same every second): answers the events made. */
export const fanOut = (ctx: Pick<AppContext, 'services'>) => ctx.services.webhooks.fanOut(() => ctx.services.changes.stamp());

/** The status of an app's event by its wire event_uid. */
export async function eventStatus(db: Db, appUid: string, eventUid: string) {
  const [row] = await db.execute<{ status: string; attempts: number }>(
    sql`select status, attempts from webhook_events where app_uid = ${appUid} and coalesce(event_uid, uid) = ${eventUid}`,
  );
  return row;
}
