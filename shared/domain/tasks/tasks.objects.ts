import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { tasks } from '../../infra/db/schema/index.js';
import { taskToWire } from './tasks.service.js';

/** Tasks as the change feed shows them: as get-tasks does. */
export async function taskObjects(db: Db, companyUid: string, uids: readonly string[]): Promise<Map<string, unknown>> {
  const rows = await db.select().from(tasks).where(and(eq(tasks.companyUid, companyUid), inArray(tasks.taskUid, [...uids])));
  return new Map(rows.map((r) => [r.taskUid, taskToWire(r)]));
}
