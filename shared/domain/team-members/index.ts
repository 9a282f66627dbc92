/*
 * team-members: get-team-members. The public surface of the noun.
 *   team-members.schema.ts      roles, statuses, the query and a team member as sent
 *   team-members.repository.ts  one page of team members
 *   team-members.service.ts     TeamMembersService, teamMemberToWire
 */
export * from './team-members.schema.js';
export * from './team-members.repository.js';
export * from './team-members.service.js';
