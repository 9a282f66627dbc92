import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { guests, hosts } from '../../infra/db/schema/index.js';
import { PAGE_SIZE } from '../../infra/http/wire.js';
import type { PeopleKind, PeopleQuery } from './people.schema.js';

export type PersonRow = typeof hosts.$inferSelect;

export const peopleTable = { host: hosts, guest: guests } as const;

/** One page (plus one row) of the company's hosts or guests, by uid. */
export async function listPeople(db: Db, companyUid: string, kind: PeopleKind, q: PeopleQuery): Promise<PersonRow[]> {
  const t = peopleTable[kind];
  const where: SQL[] = [eq(t.companyUid, companyUid)];
  if (q.uids) where.push(inArray(t.uid, q.uids));
  if (q.platform_type) where.push(inArray(t.platformType, q.platform_type));
  return db
    .select()
    .from(t)
    .where(and(...where))
    .orderBy(asc(sql`${t.uid} collate "C"`))
    .limit(PAGE_SIZE + 1)
    .offset((q.page - 1) * PAGE_SIZE);
}

export const peopleRepository = { listPeople };
export type PeopleRepository = typeof peopleRepository;
