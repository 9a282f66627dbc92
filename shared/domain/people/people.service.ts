import type { z } from 'zod';
import type { AppContext } from '../../app/context.js';
import { pageOf, type PageMeta } from '../../infra/http/wire.js';
import { listPeople, type PersonRow } from './people.repository.js';
import type { Guest, guestsQuerySchema, Host, hostsQuerySchema } from './people.schema.js';

const fields = (row: PersonRow) => ({
  name: row.name,
  email: row.emails,
  phone_number: row.phones,
  platform_type: row.platformType as Host['platform_type'],
});

export const hostToWire = (row: PersonRow): Host => ({ host_uid: row.uid, ...fields(row) });
export const guestToWire = (row: PersonRow): Guest => ({ guest_uid: row.uid, ...fields(row) });

export async function getHostsPage(
  deps: Pick<AppContext, 'database'>,
  companyUid: string,
  q: z.output<typeof hostsQuerySchema>,
): Promise<{ data: Host[]; meta: PageMeta }> {
  const page = pageOf(await listPeople(deps.database.db, companyUid, 'host', { uids: q.host_uids, platform_type: q.platform_type, page: q.page }), q.page);
  return { data: page.data.map(hostToWire), meta: page.meta };
}

export async function getGuestsPage(
  deps: Pick<AppContext, 'database'>,
  companyUid: string,
  q: z.output<typeof guestsQuerySchema>,
): Promise<{ data: Guest[]; meta: PageMeta }> {
  const page = pageOf(await listPeople(deps.database.db, companyUid, 'guest', { uids: q.guest_uids, platform_type: q.platform_type, page: q.page }), q.page);
  return { data: page.data.map(guestToWire), meta: page.meta };
}
