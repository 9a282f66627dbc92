import { describe, expect, it } from 'vitest';
import { bookingsListHelpers, byUid } from '../support/bookings-list.js';
import { useWorld } from '../support/world.js';

const world = useWorld({ api: true });
const { tenant, uids, expectBadParam } = bookingsListHelpers(world);

/* GET /api/v1/bookings: the date windows (stay, created, updated, booked) and malformed dates. */

describe('GET /api/v1/bookings: stay window (from_date / to_date)', () => {
  async function stays() {
    const t = await tenant();
    const stay = (checkin: string, checkout: string) =>
      t.add({ localCheckinDttm: checkin, localCheckoutDttm: checkout });
    return {
      t,
      outDayBefore: await stay('2030-03-05 15:00:00', '2030-03-09 11:00:00'),
      outOnFromDate: await stay('2030-03-06 15:00:00', '2030-03-10 11:00:00'),
      spanning: await stay('2030-03-07 15:00:00', '2030-03-25 11:00:00'),
      inside: await stay('2030-03-12 15:00:00', '2030-03-14 11:00:00'),
      inOnToDate: await stay('2030-03-20 23:00:00', '2030-03-22 11:00:00'),
      inDayAfter: await stay('2030-03-21 00:00:00', '2030-03-23 11:00:00'),
    };
  }

  it('hides a booking that checked out the day before from_date and shows one checking out on it', async () => {
    const s = await stays();
    const got = await uids(s.t.token, { from_date: '2030-03-10' });
    expect(got).toContain(s.outOnFromDate);
    expect(got).not.toContain(s.outDayBefore);
    expect(got).toHaveLength(5);
  });

  it('shows a booking checking in late on a date-only to_date: the whole day counts', async () => {
    const s = await stays();
    const got = await uids(s.t.token, { to_date: '2030-03-20' });
    expect(got).toContain(s.inOnToDate);
    expect(got).not.toContain(s.inDayAfter);
    expect(got).toHaveLength(5);
  });

  it('keeps exactly the stays overlapping the window, including one spanning it', async () => {
    const s = await stays();
    expect(await uids(s.t.token, { from_date: '2030-03-10', to_date: '2030-03-20' })).toEqual([
      s.outOnFromDate,
      s.spanning,
      s.inside,
      s.inOnToDate,
    ]);
  });

  it('compares date-time bounds to the second', async () => {
    const s = await stays();
    expect(await uids(s.t.token, { from_date: '2030-03-10 11:00:01', to_date: '2030-03-20 22:59:59' })).toEqual([
      s.spanning,
      s.inside,
    ]);
    expect(await uids(s.t.token, { from_date: '2030-03-10 11:00:00', to_date: '2030-03-20 23:00:00' })).toEqual([
      s.outOnFromDate,
      s.spanning,
      s.inside,
      s.inOnToDate,
    ]);
  });

  it('reads ISO 8601 bounds with an offset (as luxon writes them) as the date-time written, the offset ignored', async () => {
    const s = await stays();
    // Local fields: the wall clock as written, whatever the offset says.
    expect(await uids(s.t.token, { from_date: '2030-03-10T11:00:01.000-04:00', to_date: '2030-03-20T22:59:59.000+09:00' })).toEqual([
      s.spanning,
      s.inside,
    ]);
    expect(await uids(s.t.token, { from_date: '2030-03-10T11:00:00Z', to_date: '2030-03-20T23:00:00.5Z' })).toEqual([
      s.outOnFromDate,
      s.spanning,
      s.inside,
      s.inOnToDate,
    ]);
  });

  it('answers an inverted window with an empty list, not an error', async () => {
    const s = await stays();
    expect(await uids(s.t.token, { from_date: '2030-04-01', to_date: '2030-03-01' })).toEqual([]);
  });
});

describe('GET /api/v1/bookings: created / updated / booked windows', () => {
  const columns = [
    ['created', 'createdDttm'],
    ['updated', 'updatedDttm'],
    ['booked', 'bookedDttm'],
  ] as const;

  it.each(columns)('bounds %s_dttm inclusively at both ends, a date-only upper bound covering its whole day', async (name, column) => {
    const t = await tenant();
    const at = (ts: string) => t.add({ [column]: ts, localCheckinDttm: `2030-01-01 ${ts.slice(11)}` });
    const before = await at('2029-04-30 23:59:59');
    const first = await at('2029-05-01 00:00:00');
    const middle = await at('2029-05-15 12:00:00');
    const last = await at('2029-05-31 23:59:59');
    const after = await at('2029-06-01 00:00:00');
    const got = await uids(t.token, { [`from_${name}_date`]: '2029-05-01', [`to_${name}_date`]: '2029-05-31' });
    expect(got.sort(byUid)).toEqual([first, middle, last].sort(byUid));
    expect(got).not.toContain(before);
    expect(got).not.toContain(after);
  });

  it.each(columns)('includes both ends of a date-time window on %s_dttm', async (name, column) => {
    const t = await tenant();
    const at = (ts: string) => t.add({ [column]: ts, localCheckinDttm: `2030-01-01 ${ts.slice(11)}` });
    await at('2029-05-15 11:59:59');
    const from = await at('2029-05-15 12:00:00');
    const to = await at('2029-05-15 18:30:00');
    await at('2029-05-15 18:30:01');
    const got = await uids(t.token, { [`from_${name}_date`]: '2029-05-15 12:00:00', [`to_${name}_date`]: '2029-05-15 18:30:00' });
    expect(got).toEqual([from, to]);
  });

  it.each(columns)('converts an ISO 8601 bound with an offset on %s_dttm (UTC) to the UTC instant', async (name, column) => {
    const t = await tenant();
    const at = (ts: string) => t.add({ [column]: ts, localCheckinDttm: `2030-01-01 ${ts.slice(11)}` });
    await at('2029-05-15 03:59:59');
    const from = await at('2029-05-15 04:00:00');
    const to = await at('2029-05-15 22:30:00');
    await at('2029-05-15 22:30:01');
    // 00:00 in New York (EDT, -04:00) is 04:00 UTC; 07:30 in Tokyo (+09:00) the next day is 22:30 UTC.
    const got = await uids(t.token, { [`from_${name}_date`]: '2029-05-15T00:00:00.000-04:00', [`to_${name}_date`]: '2029-05-16T07:30:00+09:00' });
    expect(got).toEqual([from, to]);
    expect(await uids(t.token, { [`from_${name}_date`]: '2029-05-15T04:00:00.000Z', [`to_${name}_date`]: '2029-05-15T04:00:00Z' })).toEqual([from]);
  });

  it('covers 23:59:59 of a date-only to_created_date and nothing of the next day', async () => {
    const t = await tenant();
    const lastSecond = await t.add({ createdDttm: '2029-07-04 23:59:59' });
    await t.add({ createdDttm: '2029-07-05 00:00:00' });
    expect(await uids(t.token, { to_created_date: '2029-07-04' })).toEqual([lastSecond]);
  });

  it('applies a lone from_ bound with no upper end', async () => {
    const t = await tenant();
    await t.add({ updatedDttm: '2029-01-01 00:00:00' });
    const later = await t.add({ updatedDttm: '2035-01-01 00:00:00' });
    expect(await uids(t.token, { from_updated_date: '2030-01-01' })).toEqual([later]);
  });
});

describe('GET /api/v1/bookings: malformed dates', () => {
  const params = ['from_date', 'to_date', 'from_created_date', 'to_created_date', 'from_updated_date', 'to_updated_date',
    'from_booked_date', 'to_booked_date'];
  const bad = ['2025-02-30', '2025-13-01', '2025-1-1', '2025-01-01 25:00:00', '2025-01-01T10:00', '2025-01-01T10:00:00+25:00', 'soon'];

  it.each(params)('rejects an impossible or malformed %s with code 11 naming it', async (param) => {
    const t = await tenant();
    for (const value of bad) {
      const err = await expectBadParam(t.token, { [param]: value }, param);
      expect(err.message).toContain(param);
    }
  });

  it.each(params)('reads %s sent empty as absent (Conventions)', async (param) => {
    const t = await tenant();
    const uid = await t.add();
    expect(await uids(t.token, { [param]: '' })).toEqual([uid]);
  });

  it('accepts a leap day', async () => {
    const t = await tenant();
    const uid = await t.add({ createdDttm: '2028-02-29 10:00:00' });
    expect(await uids(t.token, { from_created_date: '2028-02-29', to_created_date: '2028-02-29' })).toEqual([uid]);
  });
});
