import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../infra/db/client.js';
import { byUid, onePage } from '../../infra/db/page.js';
import { teamMembers } from '../../infra/db/schema/index.js';
import type { TeamMembersQuery } from './team-members.schema.js';

export type TeamMemberRow = typeof teamMembers.$inferSelect;

/** One page (plus one row) of the company's team, by uid; member_roles matches any one role. */
export async function selectTeamMembers(db: Db, companyUid: string, q: TeamMembersQuery): Promise<TeamMemberRow[]> {
  const where: SQL[] = [eq(teamMembers.companyUid, companyUid)];
  if (q.member_uids) where.push(inArray(teamMembers.uid, q.member_uids));
  if (q.member_roles) where.push(sql`${teamMembers.roles} && ${`{${q.member_roles.join(',')}}`}::text[]`);
  if (q.member_status) where.push(eq(teamMembers.memberStatus, q.member_status));
  return onePage(db.select().from(teamMembers).where(and(...where)).$dynamic(), q.page, byUid(teamMembers.uid));
}

export const teamMembersRepository = { selectTeamMembers };
export type TeamMembersRepository = typeof teamMembersRepository;
