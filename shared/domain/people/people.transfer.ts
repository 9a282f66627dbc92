import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../infra/db/client.js';
import { byUid } from '../../infra/db/page.js';
import { guests, hosts } from '../../infra/db/schema/index.js';
import { emailAddressSchema } from '../../infra/email-address.js';
import { keysetPages, TRANSFER_PAGE, uidAfter, type TransferPart } from '../transfer-part.js';
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

const rowOf = (c: string, uid: string, l: HostLine | GuestLine): typeof hosts.$inferInsert => ({
  uid, companyUid: c, name: l.name, emails: l.email, phones: l.phone_number, platformType: l.platform_type, thumbnailUrl: l.thumbnail_url ?? null,
});

/** Every host or guest of the company, by uid. */
const everyone = (db: Db, table: typeof hosts | typeof guests, companyUid: string) =>
  keysetPages((a) => db.select().from(table).where(and(eq(table.companyUid, companyUid), uidAfter(table.uid, a))).orderBy(byUid(table.uid)).limit(TRANSFER_PAGE), (r) => r.uid);

export const hostTransfer: TransferPart<HostLine> = {
  kind: 'host',
  table: hosts,
  key: ['company_uid', 'uid'],
  uidField: 'host_uid',
  uidOf: (l) => l.host_uid,
  toRow: (c, l) => rowOf(c, l.host_uid, l),
  async *exportLines(db, companyUid) {
    for await (const r of everyone(db, hosts, companyUid)) yield { kind: 'host', ...hostToWire(r) };
  },
};

export const guestTransfer: TransferPart<GuestLine> = {
  kind: 'guest',
  table: guests,
  key: ['company_uid', 'uid'],
  uidField: 'guest_uid',
  uidOf: (l) => l.guest_uid,
  toRow: (c, l) => rowOf(c, l.guest_uid, l),
  async *exportLines(db, companyUid) {
    for await (const r of everyone(db, guests, companyUid)) yield { kind: 'guest', ...guestToWire(r) };
  },
};
