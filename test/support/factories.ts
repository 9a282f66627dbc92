import type { Scope } from '../../shared/auth/scopes.js';
import { issueToken } from '../../shared/auth/token.repository.js';
import type { Db } from '../../shared/db/client.js';
import { bookings, companies, properties, tasks, teamMembers } from '../../shared/db/schema.js';
import { newUid } from '../../shared/ids.js';

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

export async function createBookings(db: Db, rows: BookingInsert[]) {
  for (let i = 0; i < rows.length; i += 1000) await db.insert(bookings).values(rows.slice(i, i + 1000));
  return rows;
}

export async function createTeamMember(
  db: Db,
  companyUid: string,
  o: { active?: boolean; name?: string; role?: string } = {},
) {
  const uid = newUid('tm_');
  await db
    .insert(teamMembers)
    .values({ uid, companyUid, name: o.name ?? 'Ana Cleaner', role: o.role ?? 'cleaner', active: o.active ?? true });
  return uid;
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
