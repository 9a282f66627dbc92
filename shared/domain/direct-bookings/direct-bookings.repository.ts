import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Tx } from '../../infra/db/client.js';
import { bookings, calendarDays, companies, guests, hosts, listings } from '../../infra/db/schema/index.js';
import { holdingStatuses } from '../bookings/index.js';
import { recordChange } from '../changes/index.js';

export type { Tx } from '../../infra/db/client.js';
export type BookingRow = typeof bookings.$inferSelect;

/**
 * The airgms listing direct bookings of a property go to: its first airgms listing by uid, else one
 * made for it (a fixed uid per property, so two first bookings racing make one listing), run by the
 * company's first airgms host, else by one made for the company (named after it).
 */
export async function directListingOf(tx: Tx, companyUid: string, propertyUid: string, propertyName: string) {
  const [found] = await tx
    .select({ uid: listings.uid, hostUid: listings.hostUid })
    .from(listings)
    .where(and(eq(listings.companyUid, companyUid), eq(listings.propertyUid, propertyUid), eq(listings.platformType, 'airgms')))
    .orderBy(asc(sql`${listings.uid} collate "C"`))
    .limit(1);
  if (found) return found;
  const hostUid = await directHostOf(tx, companyUid);
  const uid = `li_direct_${propertyUid}`;
  const created = await tx
    .insert(listings)
    .values({ uid, companyUid, propertyUid, platformType: 'airgms', name: propertyName, hostUid })
    .onConflictDoNothing()
    .returning({ uid: listings.uid });
  if (created.length > 0) {
    await recordChange(tx, { company: companyUid, kind: 'listing', objectUid: uid });
    // The property shows its listings' uids, so it changed too.
    await recordChange(tx, { company: companyUid, kind: 'property', objectUid: propertyUid });
    // The property's first listing is what its calendar days show (listing_uid, platform_type):
    // every date the feed may have shown changes (issue 40: a change of anything an object shows
    // records a change of that object). The feed has shown only dates with a stored day.
    const stored = await tx
      .select({ date: calendarDays.date })
      .from(calendarDays)
      .where(and(eq(calendarDays.companyUid, companyUid), eq(calendarDays.propertyUid, propertyUid)));
    if (stored.length > 0) await recordChange(tx, { company: companyUid, kind: 'calendar_day', objectUid: propertyUid, dates: stored.map((d) => String(d.date)) });
  }
  const [made] = await tx
    .select({ uid: listings.uid, hostUid: listings.hostUid })
    .from(listings)
    .where(and(eq(listings.companyUid, companyUid), eq(listings.uid, uid)));
  return made!;
}

async function directHostOf(tx: Tx, companyUid: string): Promise<string> {
  const [found] = await tx
    .select({ uid: hosts.uid })
    .from(hosts)
    .where(and(eq(hosts.companyUid, companyUid), eq(hosts.platformType, 'airgms')))
    .orderBy(asc(sql`${hosts.uid} collate "C"`))
    .limit(1);
  if (found) return found.uid;
  const [company] = await tx.select({ name: companies.name }).from(companies).where(eq(companies.uid, companyUid));
  const uid = `ho_direct_${companyUid}`;
  await tx.insert(hosts).values({ uid, companyUid, name: company?.name ?? null, platformType: 'airgms' }).onConflictDoNothing();
  return uid;
}

/**
 * Whether a booking the migration exempted from the no-overlap constraint (legacy_overlap) holds
 * one of the nights. Those rows are never created again, so this check cannot race; every other
 * overlap is refused by the constraint itself.
 */
export async function legacyHoldOverlaps(
  tx: Tx,
  companyUid: string,
  propertyUid: string,
  checkin: string,
  checkout: string,
  exceptBookingUid: string | null,
): Promise<boolean> {
  const rows = await tx
    .select({ uid: bookings.bookingUid })
    .from(bookings)
    .where(
      and(
        eq(bookings.companyUid, companyUid),
        eq(bookings.propertyUid, propertyUid),
        eq(bookings.legacyOverlap, true),
        sql`${bookings.bookingStatus} in (${sql.join(holdingStatuses.map((s) => sql`${s}`), sql`, `)})`,
        sql`daterange(${bookings.localCheckinDttm}::date, ${bookings.localCheckoutDttm}::date, '[)') && daterange(${checkin}::date, ${checkout}::date, '[)')`,
        exceptBookingUid ? ne(bookings.bookingUid, exceptBookingUid) : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** The company's bookings with that reservation code, airgms first, locked until the transaction ends. */
export async function lockBookingsByCode(tx: Tx, companyUid: string, code: string): Promise<BookingRow[]> {
  return tx
    .select()
    .from(bookings)
    .where(and(eq(bookings.companyUid, companyUid), eq(bookings.reservationCode, code)))
    .orderBy(sql`${bookings.platformType} <> 'airgms'`, asc(sql`${bookings.bookingUid} collate "C"`))
    .for('update');
}

export async function insertGuest(tx: Tx, companyUid: string, uid: string, name: string): Promise<void> {
  await tx.insert(guests).values({ uid, companyUid, name, platformType: 'airgms' });
}

export async function renameGuest(tx: Tx, companyUid: string, uid: string, name: string): Promise<void> {
  await tx
    .update(guests)
    .set({ name })
    .where(and(eq(guests.companyUid, companyUid), eq(guests.uid, uid)));
}

/**
 * The nights a booking holds are what the property's calendar days show (is_available,
 * unavailable_reason): booking, re-booking or cancelling records a change of those dates.
 */
export async function recordNightsChanged(tx: Tx, companyUid: string, propertyUid: string, stays: readonly { checkin: string; checkout: string }[]): Promise<void> {
  const dates = new Set<string>();
  for (const { checkin, checkout } of stays) {
    const end = Date.parse(`${checkout.slice(0, 10)}T00:00:00Z`);
    for (let d = Date.parse(`${checkin.slice(0, 10)}T00:00:00Z`); d < end; d += 86_400_000) dates.add(new Date(d).toISOString().slice(0, 10));
  }
  if (dates.size > 0) await recordChange(tx, { company: companyUid, kind: 'calendar_day', objectUid: propertyUid, dates: [...dates].sort() });
}

type NewBooking = typeof bookings.$inferInsert;

/** A direct booking made. */
export async function insertBooking(tx: Tx, row: NewBooking): Promise<void> {
  await tx.insert(bookings).values(row);
}

/** A direct booking made again or cancelled: its fields replaced where given. */
export async function updateBooking(tx: Tx, companyUid: string, bookingUid: string, fields: Partial<NewBooking>): Promise<void> {
  await tx.update(bookings).set(fields).where(and(eq(bookings.companyUid, companyUid), eq(bookings.bookingUid, bookingUid)));
}

export const directBookingsRepository = { insertBooking, updateBooking, directListingOf, recordNightsChanged, legacyHoldOverlaps, lockBookingsByCode, insertGuest, renameGuest };
export type DirectBookingsRepository = typeof directBookingsRepository;
