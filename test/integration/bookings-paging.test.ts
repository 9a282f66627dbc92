import { describe, expect, it } from 'vitest';
import { bookingsPageQuery, bookingsQuerySchema } from '../../shared/domain/bookings/index.js';
import { bookingRow, createBookings, type BookingInsert } from '../support/factories.js';
import { bookingsListHelpers, byUid } from '../support/bookings-list.js';
import { useWorld } from '../support/world.js';

const world = useWorld({ api: true });
const { tenant, list, uids, expectBadParam } = bookingsListHelpers(world);

describe('GET /api/v1/bookings: paging', () => {
  /** 65 bookings, five on each of 13 check-in times, so the booking_uid tie-break is exercised. */
  async function sixtyFive() {
    const t = await tenant();
    const rows: BookingInsert[] = [];
    for (let i = 0; i < 65; i++) {
      const day = String(1 + (i % 13)).padStart(2, '0');
      rows.push(
        bookingRow(t.companyUid, t.propertyUid, {
          localCheckinDttm: `2030-05-${day} 15:00:00`,
          localCheckoutDttm: `2030-05-${day} 23:00:00`,
          createdDttm: `2029-01-${String(1 + (i % 7)).padStart(2, '0')} 10:00:00`,
        }),
      );
    }
    // Inserted in reverse, so heap order is not the answer's order by accident.
    await createBookings(world.tdb.database.db, rows.reverse());
    return { t, rows };
  }

  async function walk(token: string, query: Record<string, string> = {}) {
    const seen: string[] = [];
    const metas: unknown[] = [];
    for (let page = 1; page <= 10; page++) {
      const res = await list(token, { ...query, page: String(page) });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((b: { booking_uid: string }) => b.booking_uid));
      metas.push(res.body.meta);
      if (!res.body.meta.has_next_page) break;
    }
    return { seen, metas };
  }

  it('walks every page in check-in order then booking_uid, without a repeat or a gap', async () => {
    const { t, rows } = await sixtyFive();
    const expected = [...rows]
      .sort((a, b) => (a.localCheckinDttm < b.localCheckinDttm ? -1 : a.localCheckinDttm > b.localCheckinDttm ? 1 : byUid(a.bookingUid, b.bookingUid)))
      .map((r) => r.bookingUid);
    const { seen, metas } = await walk(t.token);
    expect(metas).toEqual([
      { page: 1, has_next_page: true },
      { page: 2, has_next_page: true },
      { page: 3, has_next_page: false },
    ]);
    expect(new Set(seen).size).toBe(65);
    expect(seen).toEqual(expected);
  });

  it('walks every page newest created first then booking_uid with order_by_created_dttm=true', async () => {
    const { t, rows } = await sixtyFive();
    const expected = [...rows]
      .sort((a, b) => (a.createdDttm > b.createdDttm ? -1 : a.createdDttm < b.createdDttm ? 1 : byUid(a.bookingUid, b.bookingUid)))
      .map((r) => r.bookingUid);
    const { seen, metas } = await walk(t.token, { order_by_created_dttm: 'true' });
    expect(metas).toHaveLength(3);
    expect(new Set(seen).size).toBe(65);
    expect(seen).toEqual(expected);
  });

  it('walks the same order, page by page, when a window on another column makes it filter first', async () => {
    const { t } = await sixtyFive();
    const plain = await walk(t.token);
    // Every booking checks out in May 2030 and was updated 2029-12-01: both windows keep all 65.
    const byStay = await walk(t.token, { from_date: '2030-05-01' });
    const byUpdate = await walk(t.token, { from_updated_date: '2029-01-01', to_updated_date: '2029-12-31' });
    expect(byStay).toEqual(plain);
    expect(byUpdate).toEqual(plain);
    expect(plain.seen).toHaveLength(65);
  });

  it('walks newest created first the same way when a stay window is also given', async () => {
    const { t } = await sixtyFive();
    const plain = await walk(t.token, { order_by_created_dttm: 'true' });
    const windowed = await walk(t.token, { order_by_created_dttm: 'true', from_date: '2030-01-01', to_date: '2030-12-31' });
    expect(windowed).toEqual(plain);
    expect(plain.seen).toHaveLength(65);
  });

  it('filters first in a subquery the planner cannot flatten when a window is on another column', () => {
    // The plans behind this are in bench/bookings-explain.ts; this guards the statement's shape.
    const sqlOf = (query: Record<string, string>) =>
      bookingsPageQuery(world.tdb.database.db, 'co_x', bookingsQuerySchema.parse(query)).toSQL().sql;
    const fenced = /from \(select .* limit \$\d+\) "matches"/;
    expect(sqlOf({ from_date: '2030-01-01' })).toMatch(fenced);
    expect(sqlOf({ from_updated_date: '2030-01-01' })).toMatch(fenced);
    expect(sqlOf({ order_by_created_dttm: 'true', to_date: '2030-01-01' })).toMatch(fenced);
    expect(sqlOf({})).not.toMatch(fenced);
    expect(sqlOf({ to_date: '2030-01-01' })).not.toMatch(fenced);
    expect(sqlOf({ order_by_created_dttm: 'true', from_created_date: '2030-01-01' })).not.toMatch(fenced);
  });

  it('keeps the check-in order with order_by_created_dttm=false', async () => {
    const { t } = await sixtyFive();
    const asDefault = await uids(t.token, { page: '2' });
    expect(await uids(t.token, { page: '2', order_by_created_dttm: 'false' })).toEqual(asDefault);
    expect(await uids(t.token, { page: '2', order_by_created_dttm: 'true' })).not.toEqual(asDefault);
  });

  it('says has_next_page false on the last page of an exact multiple of 25 and answers past the end with nothing', async () => {
    const t = await tenant();
    await createBookings(
      world.tdb.database.db,
      Array.from({ length: 50 }, () => bookingRow(t.companyUid, t.propertyUid)),
    );
    const p1 = await list(t.token, { page: '1' });
    const p2 = await list(t.token, { page: '2' });
    const p3 = await list(t.token, { page: '3' });
    expect([p1.body.data.length, p1.body.meta]).toEqual([25, { page: 1, has_next_page: true }]);
    expect([p2.body.data.length, p2.body.meta]).toEqual([25, { page: 2, has_next_page: false }]);
    expect(p3.status).toBe(200);
    expect(p3.body).toEqual({ data: [], meta: { page: 3, has_next_page: false } });
    expect((await list(t.token, { page: '1000' })).body).toEqual({ data: [], meta: { page: 1000, has_next_page: false } });
  });

  it.each(['0', '-1', '1.5', 'abc', ' '])('rejects page=%j with code 11 naming page', async (page) => {
    const t = await tenant();
    await expectBadParam(t.token, { page }, 'page');
  });

  it('rejects a page given twice', async () => {
    const t = await tenant();
    const res = await world.api.get('/api/v1/bookings?page=1&page=2', t.token);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 11, param: 'page' });
  });
});
