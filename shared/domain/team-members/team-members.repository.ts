import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { teamMembers } from '../../infra/db/schema/index.js';
import { PAGE_SIZE } from '../../infra/http/wire.js';
import type { TeamMembersQuery } from './team-members.schema.js';

export type TeamMemberRow = typeof teamMembers.$inferSelect;

/** One page (plus one row) of the company's team, by uid; member_roles matches any one role. */
export async function listTeamMembers(db: Db, companyUid: string, q: TeamMembersQuery): Promise<TeamMemberRow[]> {
  const where: SQL[] = [eq(teamMembers.companyUid, companyUid)];
  if (q.member_uids) where.push(inArray(teamMembers.uid, q.member_uids));
  if (q.member_roles) where.push(sql`${teamMembers.roles} && ${`{${q.member_roles.join(',')}}`}::text[]`);
  if (q.member_status) where.push(eq(teamMembers.memberStatus, q.member_status));
  return db
    .select()
    .from(teamMembers)
    .where(and(...where))
    .orderBy(asc(sql`${teamMembers.uid} collate "C"`))
    .limit(PAGE_SIZE + 1)
    .offset((q.page - 1) * PAGE_SIZE);
}

export const teamMembersRepository = { listTeamMembers };
export type TeamMembersRepository = typeof teamMembersRepository;
