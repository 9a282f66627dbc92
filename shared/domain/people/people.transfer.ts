import { z } from 'zod';
import { guests, hosts } from '../../infra/db/schema/index.js';
import { emailAddressSchema } from '../../infra/email-address.js';
import { companyLines, type TransferPart } from '../transfer-part.js';
import type { PersonRow } from './people.repository.js';
import { guestSchema, hostSchema } from './people.schema.js';
import { guestToWire, hostToWire } from './people.service.js';

/*
 * Hosts and guests in `cli export` / `cli import` (shared/domain/transfer): a line is the
 * get-hosts / get-guests object with its kind.
 */

/**
 * Fields added to the wire by issue 21: absent from older files. Every e-mail address is checked
 * before it is stored (issue 39 L5): a line with one that is not an address is refused.
 */
const person = { thumbnail_url: z.string().nullish(), email: z.array(emailAddressSchema, { error: 'must be a list of email addresses' }) };

export const hostLineSchema = hostSchema.extend({ kind: z.literal('host'), ...person });
export const guestLineSchema = guestSchema.extend({ kind: z.literal('guest'), ...person });
type HostLine = z.output<typeof hostLineSchema>;
type GuestLine = z.output<typeof guestLineSchema>;

/** Hosts and guests are one shape in two tables: the part of either. */
function personPart<L extends HostLine | GuestLine>(kind: L['kind'], table: typeof hosts | typeof guests, uidField: 'host_uid' | 'guest_uid', toWire: (r: PersonRow) => object): TransferPart<L> {
  const uidOf = (l: L) => (l as Record<string, unknown>)[uidField] as string;
  return {
    kind,
    table,
    key: ['company_uid', 'uid'],
    uidField,
    uidOf,
    toRow: (c, l): typeof hosts.$inferInsert => ({
      uid: uidOf(l), companyUid: c, name: l.name, emails: l.email, phones: l.phone_number, platformType: l.platform_type, thumbnailUrl: l.thumbnail_url ?? null,
    }),
    exportLines: companyLines(kind, table, 'uid', toWire),
  };
}

export const hostTransfer = personPart<HostLine>('host', hosts, 'host_uid', hostToWire);
export const guestTransfer = personPart<GuestLine>('guest', guests, 'guest_uid', guestToWire);
