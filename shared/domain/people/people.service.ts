import type { z } from 'zod';
import type { Infra } from '../../infra/infra.js';
import { BaseService } from '../service.js';
import { pageOf, type PageMeta } from '../../infra/http/wire.js';
import { type PeopleRepository, type PersonRow } from './people.repository.js';
import type { Guest, guestsQuerySchema, Host, hostsQuerySchema } from './people.schema.js';

const fields = (row: PersonRow) => ({
  name: row.name,
  email: row.emails,
  phone_number: row.phones,
  platform_type: row.platformType as Host['platform_type'],
  thumbnail_url: row.thumbnailUrl,
});

export const hostToWire = (row: PersonRow): Host => ({ host_uid: row.uid, ...fields(row) });
export const guestToWire = (row: PersonRow): Guest => ({ guest_uid: row.uid, ...fields(row) });

/** Hosts and guests: the people bookings, listings and threads point at. */
export class PeopleService extends BaseService {
  constructor(
    infra: Infra,
    private readonly repo: PeopleRepository,
  ) {
    super(infra);
  }

  async listHosts(companyUid: string, q: z.output<typeof hostsQuerySchema>): Promise<{ data: Host[]; meta: PageMeta }> {
    const rows = await this.repo.selectPeople(this.db, companyUid, 'host', { uids: q.host_uids, platform_type: q.platform_type, page: q.page });
    const page = pageOf(rows, q.page);
    return { data: page.data.map(hostToWire), meta: page.meta };
  }

  async listGuests(companyUid: string, q: z.output<typeof guestsQuerySchema>): Promise<{ data: Guest[]; meta: PageMeta }> {
    const rows = await this.repo.selectPeople(this.db, companyUid, 'guest', { uids: q.guest_uids, platform_type: q.platform_type, page: q.page });
    const page = pageOf(rows, q.page);
    return { data: page.data.map(guestToWire), meta: page.meta };
  }
}
