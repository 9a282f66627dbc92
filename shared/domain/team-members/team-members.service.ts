import type { AppContext } from '../../app/context.js';
import { pageOf, type PageMeta } from '../../infra/http/wire.js';
import { listTeamMembers, type TeamMemberRow } from './team-members.repository.js';
import type { TeamMember, TeamMembersQuery } from './team-members.schema.js';

export function teamMemberToWire(row: TeamMemberRow): TeamMember {
  return {
    team_member_uid: row.uid,
    name: row.name,
    email: row.email,
    phone: row.phone,
    roles: row.roles as TeamMember['roles'],
    member_status: row.memberStatus as TeamMember['member_status'],
  };
}

export async function getTeamMembersPage(
  deps: Pick<AppContext, 'database'>,
  companyUid: string,
  query: TeamMembersQuery,
): Promise<{ data: TeamMember[]; meta: PageMeta }> {
  const page = pageOf(await listTeamMembers(deps.database.db, companyUid, query), query.page);
  return { data: page.data.map(teamMemberToWire), meta: page.meta };
}
