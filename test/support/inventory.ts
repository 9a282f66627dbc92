import type { Db } from '../../shared/infra/db/client.js';
import { writeJsonRows } from '../../shared/infra/db/json-rows.js';
import { guests, hosts, listings, properties, teamMembers } from '../../shared/infra/db/schema/index.js';
import { platformTypes } from '../../shared/domain/bookings/index.js';

/**
 * `n` of everything the inventory methods list, in one company: properties (every fourth one
 * disabled), one listing each (platforms in turn, every third one unlisted), hosts, guests and team
 * members (every fifth pending, roles in turn). Uids are `<prefix>_<i>` padded, so their byte order
 * is their number order.
 */
export async function createInventory(db: Db, companyUid: string, n: number, tag = 'x') {
  const ids = Array.from({ length: n }, (_, i) => String(i).padStart(3, '0'));
  const platform = (i: number) => platformTypes[i % platformTypes.length]!;
  await writeJsonRows(
    db,
    hosts,
    ids.map((id, i) => ({ uid: `ho_${tag}${id}`, companyUid, name: `Host ${id}`, emails: [`h${id}@x.example`], phones: [], platformType: platform(i) })),
  );
  await writeJsonRows(
    db,
    guests,
    ids.map((id, i) => ({ uid: `gu_${tag}${id}`, companyUid, name: i % 7 === 0 ? null : `Guest ${id}`, emails: [], phones: [`+1555${id}`], platformType: platform(i) })),
  );
  await writeJsonRows(
    db,
    properties,
    ids.map((id, i) => ({ uid: `pr_${tag}${id}`, companyUid, name: `Property ${id}`, timeZone: 'Europe/Lisbon', isActive: i % 4 !== 3, currency: 'EUR', basePrice: '100.00' })),
  );
  await writeJsonRows(
    db,
    listings,
    ids.map((id, i) => ({
      uid: `li_${tag}${id}`,
      companyUid,
      propertyUid: `pr_${tag}${id}`,
      platformType: platform(i),
      name: `Listing ${id}`,
      status: i % 3 === 2 ? 'unlisted' : 'listed',
      hostUid: `ho_${tag}${id}`,
    })),
  );
  const roles = ['cleaner', 'handyman', 'manager', 'guest_support'];
  await writeJsonRows(
    db,
    teamMembers,
    ids.map((id, i) => ({
      uid: `tm_${tag}${id}`,
      companyUid,
      name: `Member ${id}`,
      roles: i % 6 === 0 ? [roles[i % 4]!, 'admin'] : [roles[i % 4]!],
      memberStatus: i % 5 === 4 ? 'pending' : 'active',
    })),
  );
  return { ids: ids.map((id) => `${tag}${id}`) };
}
