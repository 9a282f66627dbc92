import type { Infra } from '../../infra/infra.js';
import { BaseService } from '../service.js';
import { pageOf, type PageMeta } from '../../infra/http/wire.js';
import { type TeamMemberRow, type TeamMembersRepository } from './team-members.repository.js';
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

/** The company's team as the list method shows it. */
export class TeamMembersService extends BaseService {
  constructor(infra: Infra, private readonly repo: TeamMembersRepository) {
    super(infra);
  }

  async list(companyUid: string, query: TeamMembersQuery): Promise<{ data: TeamMember[]; meta: PageMeta }> {
    const page = pageOf(await this.repo.selectTeamMembers(this.db, companyUid, query), query.page);
    return { data: page.data.map(teamMemberToWire), meta: page.meta };
  }
}
