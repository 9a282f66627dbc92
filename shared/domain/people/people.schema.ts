import { z } from 'zod';
import { platformTypes } from '../bookings/index.js';
import { commaEnumList, commaList, pageParam, uidValue } from '../../infra/http/wire.js';

/*
 * Hosts and guests share one shape; only the name of the uid field differs (host_uid / guest_uid).
 */

export const peopleKinds = ['host', 'guest'] as const;
export type PeopleKind = (typeof peopleKinds)[number];

export const hostsQuerySchema = z.object({
  host_uids: commaList().optional().describe('Comma list of host uids (at most 500)'),
  platform_type: commaEnumList(platformTypes).optional().describe('Comma list of platform types'),
  page: pageParam.describe('1-based page of 25 hosts, ordered by host_uid'),
});
export const guestsQuerySchema = z.object({
  guest_uids: commaList().optional().describe('Comma list of guest uids (at most 500)'),
  platform_type: commaEnumList(platformTypes).optional().describe('Comma list of platform types'),
  page: pageParam.describe('1-based page of 25 guests, ordered by guest_uid'),
});

/** What the repository needs of either query. */
export interface PeopleQuery {
  uids?: string[] | undefined;
  platform_type?: Array<(typeof platformTypes)[number]> | undefined;
  page: number;
}

const fields = {
  name: z.string().nullable().describe('null where the platform never told the name'),
  email: z.array(z.string()).describe('Every e-mail address known, possibly none'),
  phone_number: z.array(z.string()).describe('Every phone number known, possibly none'),
  platform_type: z.enum(platformTypes),
  thumbnail_url: z.string().nullable().describe('A picture of the person; null where none is known'),
};
export const hostSchema = z.object({ host_uid: uidValue(), ...fields });
export const guestSchema = z.object({ guest_uid: uidValue(), ...fields });
export type Host = z.infer<typeof hostSchema>;
export type Guest = z.infer<typeof guestSchema>;
