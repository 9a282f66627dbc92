import { z } from 'zod';
import { teamMembers } from '../../infra/db/schema/index.js';
import { emailAddressSchema } from '../../infra/email-address.js';
import { columnsOf, companyLines, keyedBy, type TransferPart } from '../transfer-part.js';
import { teamMemberSchema } from './team-members.schema.js';
import { teamMemberToWire } from './team-members.service.js';

/*
 * Team members in `cli export` / `cli import` (shared/domain/transfer): a line is the
 * get-team-members object with its kind. One field exists only here, so that an export
 * round-trips every row: `legacy_role` (a team member's role text from before roles existed).
 */

export const teamMemberLineSchema = teamMemberSchema.extend({ kind: z.literal('team_member'), legacy_role: z.string().nullish(), email: emailAddressSchema.nullable() });
type TeamMemberLine = z.output<typeof teamMemberLineSchema>;

const teamMemberRow = (c: string, l: TeamMemberLine): typeof teamMembers.$inferInsert => ({
  uid: l.team_member_uid,
  companyUid: c,
  ...columnsOf(l, ['name', 'email', 'phone', 'roles', 'member_status']),
  legacyRole: l.legacy_role ?? null,
});

export const teamMemberTransfer: TransferPart<TeamMemberLine> = {
  ...keyedBy<TeamMemberLine>('team_member', teamMembers, ['uid'], 'team_member_uid'),
  toRow: teamMemberRow,
  exportLines: companyLines('team_member', teamMembers, 'uid', (r) => ({ ...teamMemberToWire(r), ...(r.legacyRole !== null ? { legacy_role: r.legacyRole } : {}) })),
};
