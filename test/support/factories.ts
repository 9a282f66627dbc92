import { issueToken, type Scope } from '../../shared/domain/auth/index.js';
import type { Db } from '../../shared/infra/db/client.js';
import { sql } from 'drizzle-orm';
import { bookings, companies, properties, tasks, teamMembers } from '../../shared/infra/db/schema/index.js';
import { newUid } from '../../shared/infra/ids.js';

/** Rows a test needs, with plausible defaults; every one belongs to the company it is given. */

export async function createCompany(db: Db, name = 'Test company'): Promise<string> {
  const uid = newUid('co_');
  await db.insert(companies).values({ uid, name });
  return uid;
}

export async function createProperty(db: Db, companyUid: string, opts: { timeZone?: string; name?: string } = {}) {
  const uid = newUid('pr_');
  await db
    .insert(properties)
    .values({ uid, companyUid, name: opts.name ?? 'Seaside flat', timeZone: opts.timeZone ?? 'UTC' });
  return uid;
}

export async function createToken(db: Db, companyUid: string, scopes: readonly Scope[]) {
  return issueToken(db, companyUid, { scopes });
}

export type BookingInsert = typeof bookings.$inferInsert;

let bookingCounter = 0;
export function bookingRow(companyUid: string, propertyUid: string, o: Partial<BookingInsert> = {}): BookingInsert {
  bookingCounter++;
  const code = `R${String(bookingCounter).padStart(6, '0')}`;
  return {
    bookingUid: newUid('bk_'),
    companyUid,
    propertyUid,
    listingUid: `${propertyUid}_airbnb`,
    guestUid: `g_${bookingCounter}`,
    hostUid: 'h_1',
    reservationCode: code,
    readableReservationCode: code,
    bookingStatus: 'accepted',
    platformType: 'airbnb',
    numberOfGuests: 2,
    localCheckinDttm: '2030-01-10 15:00:00',
    localCheckoutDttm: '2030-01-12 11:00:00',
    createdDttm: '2029-12-01 10:00:00',
    updatedDttm: '2029-12-01 10:00:00',
    bookedDttm: '2029-12-01 09:59:00',
    currency: 'USD',
    priceBase: '200.00',
    priceExtras: '10.00',
    priceFee: '15.50',
    priceTax: '22.25',
    priceTotal: '247.75',
    doorAccessCode: '4821',
    ...o,
  };
}

/**
 * Inserts bookings, first creating the listing, guest and host rows they point at where missing
 * (the foreign keys demand them; tests name them freely, e.g. host 'h_1' in every company).
 * Unless a row says otherwise, bookings are written as data from before the no-overlap constraint
 * (legacy_overlap): the list tests stack many identical stays on one property, as platforms may.
 */
export async function createBookings(db: Db, rows: BookingInsert[]) {
  await ensureBookingRefs(db, rows);
  const written = rows.map((r) => ({ legacyOverlap: true, ...r }));
  for (let i = 0; i < written.length; i += 1000) await db.insert(bookings).values(written.slice(i, i + 1000));
  return rows;
}

export async function createTeamMember(
  db: Db,
  companyUid: string,
  o: { active?: boolean; name?: string; roles?: string[] } = {},
) {
  const uid = newUid('tm_');
  await db.insert(teamMembers).values({
    uid,
    companyUid,
    name: o.name ?? 'Ana Cleaner',
    roles: o.roles ?? ['cleaner'],
    memberStatus: o.active === false ? 'pending' : 'active',
  });
  return uid;
}

async function ensureBookingRefs(db: Db, rows: BookingInsert[]): Promise<void> {
  const json = JSON.stringify(
    rows.map((r) => ({ c: r.companyUid, p: r.propertyUid, l: r.listingUid, g: r.guestUid, h: r.hostUid, t: r.platformType })),
  );
  await db.execute(sql`
    with r as (select * from jsonb_to_recordset(${json}::jsonb) as x(c text, p text, l text, g text, h text, t text)),
    h as (insert into hosts (company_uid, uid, name, platform_type)
          select distinct on (c, h) c, h, 'Host ' || h, t from r on conflict do nothing),
    g as (insert into guests (company_uid, uid, name, platform_type)
          select distinct on (c, g) c, g, 'Guest ' || g, t from r on conflict do nothing)
    select 1`);
  // Listings after their hosts are visible (a CTE's inserts are not, to its siblings' foreign keys).
  await db.execute(sql`
    insert into listings (company_uid, uid, property_uid, platform_type, name, host_uid)
    select distinct on (c, l) c, l, p, t, 'Listing ' || l, h
    from jsonb_to_recordset(${json}::jsonb) as x(c text, p text, l text, g text, h text, t text)
    on conflict do nothing`);
}

export type TaskInsert = typeof tasks.$inferInsert;

export async function createTask(db: Db, companyUid: string, propertyUid: string, o: Partial<TaskInsert> = {}) {
  const row: TaskInsert = {
    taskUid: newUid('tk_'),
    companyUid,
    propertyUid,
    teamMemberUid: null,
    taskType: 'cleaning',
    taskStatus: 'unassigned',
    description: 'Turnover clean',
    localStartDttm: '2030-01-12 11:00:00',
    localEndDttm: '2030-01-12 13:30:00',
    ...o,
  };
  await db.insert(tasks).values(row);
  return row;
}
