/*
 * team-members: get-team-members. The public surface of the noun.
 *   team-members.schema.ts      roles, statuses, the query and a team member as sent
 *   team-members.repository.ts  one page of team members
 *   team-members.service.ts     TeamMembersService, teamMemberToWire
 *   team-members.transfer.ts    team members as `cli export` / `cli import` lines (shared/domain/transfer)
 */
export * from './team-members.schema.js';
export * from './team-members.repository.js';
export * from './team-members.service.js';
export * from './team-members.transfer.js';
