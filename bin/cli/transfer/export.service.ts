import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { bookingToWire } from '../../../shared/domain/bookings/index.js';
import type { Db } from '../../../shared/infra/db/client.js';
import { bookings, guests, hosts, listings, properties, tasks, teamMembers } from '../../../shared/infra/db/schema/index.js';
import { listingContentOf, listingToWire } from '../../../shared/domain/listings/index.js';
import { guestToWire, hostToWire } from '../../../shared/domain/people/index.js';
import { propertyToWire } from '../../../shared/domain/properties/index.js';
import { taskToWire } from '../../../shared/domain/tasks/index.js';
import { teamMemberToWire } from '../../../shared/domain/team-members/index.js';
import { exportMessagingLines } from './messaging.transfer.js';
import { exportCalendarLines } from './calendar.transfer.js';

/*
 * `cli export --company`: every object of the company as `cli import` lines, in the order import
 * writes them, each kind in byte order of uid. Read in keyset pages, so memory stays flat.
 */

const PAGE = 5000;

/** Pages of a company's rows ordered by `uid` (collate "C"), each page after the last uid seen. */
async function* pages<R>(fetch: (after: SQL | undefined) => Promise<R[]>, uidOf: (r: R) => string): AsyncGenerator<R> {
  let last: string | undefined;
  for (;;) {
    const got = await fetch(last === undefined ? undefined : sql`${last}`);
    for (const r of got) yield r;
    if (got.length < PAGE) return;
    last = uidOf(got[got.length - 1]!);
  }
}

const after = (uid: PgColumn, value: SQL | undefined) => (value ? gt(sql`${uid} collate "C"`, value) : undefined);
const byUid = (uid: PgColumn) => asc(sql`${uid} collate "C"`);
const line = (kind: string, wire: object) => JSON.stringify({ kind, ...wire });

export async function* exportLines(db: Db, companyUid: string): AsyncGenerator<string> {
  for (const [kind, table, toWire] of [
    ['host', hosts, hostToWire],
    ['guest', guests, guestToWire],
  ] as const) {
    for await (const r of pages((a) => db.select().from(table).where(and(eq(table.companyUid, companyUid), after(table.uid, a))).orderBy(byUid(table.uid)).limit(PAGE), (r) => r.uid)) {
      yield line(kind, toWire(r));
    }
  }

  const all = { doorCode: true, calendarControl: true, insurance: true };
  for await (const r of pages(
    (a) =>
      db
        .select({ p: properties, listingUids: sql<string[]>`coalesce(array(select l.uid from listings l where l.company_uid = "properties"."company_uid" and l.property_uid = "properties"."uid" order by l.uid collate "C"), '{}')` })
        .from(properties)
        .where(and(eq(properties.companyUid, companyUid), after(properties.uid, a)))
        .orderBy(byUid(properties.uid))
        .limit(PAGE),
    (r) => r.p.uid,
  )) {
    yield line('property', propertyToWire({ ...r.p, listingUids: r.listingUids }, all));
  }

  for await (const r of pages(
    (a) =>
      db
        .select({
          listing: listings,
          property: { name: properties.name, address: properties.address, isActive: properties.isActive, lat: properties.lat, lng: properties.lng, timeZone: properties.timeZone },
          hostName: hosts.name,
        })
        .from(listings)
        .innerJoin(properties, and(eq(properties.companyUid, listings.companyUid), eq(properties.uid, listings.propertyUid)))
        .innerJoin(hosts, and(eq(hosts.companyUid, listings.companyUid), eq(hosts.uid, listings.hostUid)))
        .where(and(eq(listings.companyUid, companyUid), after(listings.uid, a)))
        .orderBy(byUid(listings.uid))
        .limit(PAGE),
    (r) => r.listing.uid,
  )) {
    const content = listingContentOf(r.listing);
    yield line('listing', { ...listingToWire(r), ...(content ? { direct_booking_content: content } : {}) });
  }

  for await (const r of pages((a) => db.select().from(teamMembers).where(and(eq(teamMembers.companyUid, companyUid), after(teamMembers.uid, a))).orderBy(byUid(teamMembers.uid)).limit(PAGE), (r) => r.uid)) {
    yield line('team_member', { ...teamMemberToWire(r), ...(r.legacyRole !== null ? { legacy_role: r.legacyRole } : {}) });
  }

  for await (const r of pages((a) => db.select().from(bookings).where(and(eq(bookings.companyUid, companyUid), after(bookings.bookingUid, a))).orderBy(byUid(bookings.bookingUid)).limit(PAGE), (r) => r.bookingUid)) {
    yield line('booking', {
      ...bookingToWire(r, true, true),
      ...(r.description !== null ? { description: r.description } : {}),
    });
  }

  for await (const r of pages((a) => db.select().from(tasks).where(and(eq(tasks.companyUid, companyUid), after(tasks.taskUid, a))).orderBy(byUid(tasks.taskUid)).limit(PAGE), (r) => r.taskUid)) {
    yield line('task', taskToWire(r));
  }

  yield* exportMessagingLines(db, companyUid);
  yield* exportCalendarLines(db, companyUid);
}
