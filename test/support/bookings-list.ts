import { expect } from 'vitest';
import type { Scope } from '../../shared/domain/auth/index.js';
import { bookingRow, createBookings, createCompany, createProperty, createToken, type BookingInsert } from './factories.js';
import type { ApiWorld } from './world.js';

/** The list-bookings tests' helpers over one test world (test/integration/bookings*.test.ts). */
export function bookingsListHelpers(world: ApiWorld) {
  /** A company of its own per test, so no test sees another's bookings. */
  async function tenant(scopes: Scope[] = ['messaging']) {
    const db = world.tdb.database.db;
    const companyUid = await createCompany(db);
    const propertyUid = await createProperty(db, companyUid);
    const { token } = await createToken(db, companyUid, scopes);
    const add = async (o: Partial<BookingInsert> = {}) => {
      const [row] = await createBookings(db, [bookingRow(companyUid, o.propertyUid ?? propertyUid, o)]);
      return row!.bookingUid;
    };
    return { companyUid, propertyUid, token, add };
  }

  async function list(token: string, query: Record<string, string> = {}) {
    const qs = new URLSearchParams(query).toString();
    return world.api.get(`/api/v1/bookings${qs ? `?${qs}` : ''}`, token);
  }

  /** The uids answered, in order; fails the test on anything but a 200. */
  async function uids(token: string, query: Record<string, string> = {}): Promise<string[]> {
    const res = await list(token, query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((b: { booking_uid: string }) => b.booking_uid);
  }

  async function expectBadParam(token: string, query: Record<string, string>, param: string) {
    const res = await list(token, query);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatchObject({ code: 11, param });
    expect(res.body).not.toHaveProperty('data');
    return res.body.error as { message: string };
  }

  return { tenant, list, uids, expectBadParam };
}

/** Byte order, the order of `booking_uid collate "C"`. */
export const byUid = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
