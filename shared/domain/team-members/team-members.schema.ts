import { z } from 'zod';
import { memberRoles } from '../../infra/db/schema/index.js';
import { commaEnumList, commaList, oneOf, pageParam, uidValue } from '../../infra/http/wire.js';

export { memberRoles };
export const memberStatuses = ['pending', 'active'] as const;

/** Query of GET /api/v1/team-members. Unknown parameters are ignored. */
export const teamMembersQuerySchema = z.object({
  member_uids: commaList().optional().describe('Comma list of team member uids (at most 500)'),
  member_roles: commaEnumList(memberRoles)
    .optional()
    .describe('Comma list of roles: a member having any one of them is listed'),
  member_status: oneOf(memberStatuses).optional().describe('One of pending, active'),
  page: pageParam.describe('1-based page of 25 members, ordered by team_member_uid'),
});
export type TeamMembersQuery = z.output<typeof teamMembersQuerySchema>;

export const teamMemberSchema = z.object({
  team_member_uid: uidValue(),
  name: z.string().min(1),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  roles: z.array(z.enum(memberRoles)).min(1, 'a member has at least one role'),
  member_status: z.enum(memberStatuses).describe('Only an active member can be assigned to a task'),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;
