import { z } from 'zod';
import { bookingLineSchema, bookingTransfer } from '../bookings/index.js';
import { calendarDayLineSchema, calendarDayTransfer } from '../calendar/index.js';
import { listingLineSchema, listingTransfer } from '../listings/index.js';
import { messageLineSchema, messageTransfer, threadLineSchema, threadTransfer } from '../messaging/index.js';
import { guestLineSchema, guestTransfer, hostLineSchema, hostTransfer } from '../people/index.js';
import { propertyLineSchema, propertyTransfer } from '../properties/index.js';
import { taskLineSchema, taskTransfer } from '../tasks/index.js';
import { teamMemberLineSchema, teamMemberTransfer } from '../team-members/index.js';
import type { TransferPart } from '../transfer-part.js';

/*
 * One line of `cli import` / `cli export`: `{"kind": ..., ...the wire fields}`, validated with the
 * wire schemas themselves. Each kind's line schema, its rows and its export are its noun's
 * (`<noun>.transfer.ts`); this file puts them in the order import writes them and export reads
 * them. Fields the wire derives from other objects (a property's listing uids, a listing's
 * property_* and host_name) may be present and are ignored: the objects they come from have lines
 * of their own. Fields that exist only here, so that an export round-trips every row, are named
 * where their kind is (a team member's `legacy_role`, a booking's `description`).
 */

export const kinds = ['host', 'guest', 'property', 'listing', 'team_member', 'booking', 'task', 'thread', 'message', 'calendar_day'] as const;
export type Kind = (typeof kinds)[number];

export const lineSchema = z.discriminatedUnion('kind', [
  hostLineSchema,
  guestLineSchema,
  propertyLineSchema,
  listingLineSchema,
  teamMemberLineSchema,
  bookingLineSchema,
  taskLineSchema,
  // camelCase, as get-threads shows them.
  threadLineSchema,
  messageLineSchema,
  calendarDayLineSchema,
]);
export type Line = z.output<typeof lineSchema>;
export type LineOf<K extends Kind> = Extract<Line, { kind: K }>;

/** Each kind's part, as its noun declares it. */
export const parts: { [K in Kind]: TransferPart<LineOf<K>> } = {
  host: hostTransfer,
  guest: guestTransfer,
  property: propertyTransfer,
  listing: listingTransfer,
  team_member: teamMemberTransfer,
  booking: bookingTransfer,
  task: taskTransfer,
  thread: threadTransfer,
  message: messageTransfer,
  calendar_day: calendarDayTransfer,
};
