import { sql } from 'drizzle-orm';
import type { Db } from '../../shared/infra/db/client.js';
import type { AppContext } from '../../shared/app/context.js';
import { recordChanges } from '../../shared/domain/changes/index.js';

/** Polls `cond` every 25 ms until it holds (the test's own timeout bounds it). */
export const until = async (cond: () => boolean | Promise<boolean>) => {
  while (!(await cond())) await new Promise((r) => setTimeout(r, 25));
};

/** Records a change of `kind` (event type `event`) for each uid, as a write path would. */
export async function recordEvents(db: Db, company: string, kind: 'booking' | 'task', event: string, uids: readonly string[]) {
  await db.transaction((tx) => recordChanges(tx, uids.map((objectUid) => ({ company, kind, objectUid, event }))));
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
