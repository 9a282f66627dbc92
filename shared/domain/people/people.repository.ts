import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { byUid, onePage } from '../../infra/db/page.js';
import { guests, hosts } from '../../infra/db/schema/index.js';
import type { PeopleKind, PeopleQuery } from './people.schema.js';

export type PersonRow = typeof hosts.$inferSelect;

export const peopleTable = { host: hosts, guest: guests } as const;

/** One page (plus one row) of the company's hosts or guests, by uid. */
export async function selectPeople(db: Db, companyUid: string, kind: PeopleKind, q: PeopleQuery): Promise<PersonRow[]> {
  const t = peopleTable[kind];
  const where: SQL[] = [eq(t.companyUid, companyUid)];
  if (q.uids) where.push(inArray(t.uid, q.uids));
  if (q.platform_type) where.push(inArray(t.platformType, q.platform_type));
  return onePage(db.select().from(t).where(and(...where)).$dynamic(), q.page, byUid(t.uid));
}

export const peopleRepository = { selectPeople };
export type PeopleRepository = typeof peopleRepository;
