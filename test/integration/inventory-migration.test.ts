import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingStatuses } from '../../shared/domain/bookings/index.js';
import { migrateDatabase, migrationsFolder } from '../../shared/infra/db/migrate.js';
import { useWorld } from '../support/world.js';

/*
 * The issue-10 migration (0002_inventory) on a database holding data of the schema before it:
 * bare listing/guest/host uids, free-text roles, an active flag, and overlapping holding bookings
 * (which the new constraint forbids). Nothing may be lost and the migration must not fail.
 */

let sql: postgres.Sql;

/** A copy of the migrations folder that stops before 0002. */
function migrationsBefore0002(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pops-mig-'));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((e) => e.idx < 2);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

const booking = (uid: string, property: string, inDate: string, outDate: string, status: string, created: string) => ({
  booking_uid: uid,
  company_uid: 'co_a',
  property_uid: property,
  listing_uid: `li_${property}`,
  guest_uid: `gu_${uid}`,
  host_uid: 'ho_shared',
  reservation_code: uid.toUpperCase(),
  readable_reservation_code: uid.toUpperCase(),
  booking_status: status,
  platform_type: 'airbnb',
  number_of_guests: 2,
  local_checkin_dttm: `${inDate} 15:00:00`,
  local_checkout_dttm: `${outDate} 11:00:00`,
  created_dttm: created,
  updated_dttm: created,
  booked_dttm: created,
  currency: 'EUR',
  price_base: '100.00',
  price_extras: '0.00',
  price_fee: '0.00',
  price_tax: '0.00',
  price_total: '100.00',
});

describe('migration 0002_inventory on existing data', () => {
  const w = useWorld({ blank: true });
  beforeAll(async () => {
    sql = postgres(w.tdb.url, { max: 1, onnotice: () => {} });
    const old = migrationsBefore0002();
    try {
      await migrate(drizzle(sql), { migrationsFolder: old });
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
    await sql`insert into companies (uid, name) values ('co_a', 'A'), ('co_b', 'B')`;
    await sql`insert into properties (uid, company_uid, name, time_zone) values
      ('pr_1', 'co_a', 'Loft', 'Europe/Lisbon'), ('pr_2', 'co_a', 'Cabin', 'UTC'), ('pr_3', 'co_b', 'Empty', 'UTC')`;
    const rows = [
      booking('bk_first', 'pr_1', '2030-01-10', '2030-01-15', 'accepted', '2029-12-01 10:00:00'),
      // Overlaps bk_first, created later: marked, kept.
      booking('bk_second', 'pr_1', '2030-01-12', '2030-01-14', 'pending', '2029-12-02 10:00:00'),
      // Overlaps both but holds nothing: untouched.
      booking('bk_cancelled', 'pr_1', '2030-01-11', '2030-01-13', 'cancelled', '2029-12-03 10:00:00'),
      // Starts on bk_first's checkout day: no overlap.
      booking('bk_next', 'pr_1', '2030-01-15', '2030-01-17', 'accepted', '2029-12-04 10:00:00'),
      booking('bk_other', 'pr_2', '2030-01-10', '2030-01-15', 'accepted', '2029-12-01 10:00:00'),
    ];
    await sql`insert into bookings ${sql(rows)}`;
    await sql`insert into team_members (uid, company_uid, name, role, active) values
      ('tm_1', 'co_a', 'Ana', 'cleaner', true), ('tm_2', 'co_a', 'Hugo', 'inspector', true), ('tm_3', 'co_a', 'Diego', 'cleaner', false)`;
    await sql`insert into tasks (task_uid, company_uid, property_uid, team_member_uid, task_type, task_status, local_start_dttm, local_end_dttm)
      values ('tk_1', 'co_a', 'pr_1', 'tm_1', 'cleaning', 'assigned', '2030-01-15 11:00:00', '2030-01-15 13:00:00')`;
    await migrateDatabase(w.tdb.url);
  });

  afterAll(async () => {
    await sql?.end();
  });

  it('keeps every booking and task, and creates the listing, guest and host rows they pointed at', async () => {
    const [counts] = await sql`select
      (select count(*)::int from bookings) as bookings, (select count(*)::int from tasks) as tasks,
      (select count(*)::int from listings) as listings, (select count(*)::int from guests) as guests,
      (select count(*)::int from hosts) as hosts`;
    expect(counts).toEqual({ bookings: 5, tasks: 1, listings: 2, guests: 5, hosts: 1 });
    const [listing] = await sql`select company_uid, property_uid, platform_type, name, host_uid, status from listings where uid = 'li_pr_1'`;
    expect(listing).toEqual({ company_uid: 'co_a', property_uid: 'pr_1', platform_type: 'airbnb', name: 'Loft (airbnb)', host_uid: 'ho_shared', status: 'listed' });
    const [guest] = await sql`select name, emails, platform_type from guests where uid = 'gu_bk_first'`;
    expect(guest).toEqual({ name: null, emails: [], platform_type: 'airbnb' });
  });

  it('marks only a holding booking that overlapped an earlier one, keeping its status', async () => {
    const marked = await sql`select booking_uid, booking_status from bookings where legacy_overlap order by 1`;
    expect(marked).toEqual([{ booking_uid: 'bk_second', booking_status: 'pending' }]);
  });

  it('maps roles and the active flag, keeping the old role text', async () => {
    const team = await sql`select uid, roles, member_status, role from team_members order by uid`;
    expect(team).toEqual([
      { uid: 'tm_1', roles: ['cleaner'], member_status: 'active', role: 'cleaner' },
      { uid: 'tm_2', roles: ['tasks_manager'], member_status: 'active', role: 'inspector' },
      { uid: 'tm_3', roles: ['cleaner'], member_status: 'pending', role: 'cleaner' },
    ]);
  });

  it('gives properties the currency of their bookings and the documented defaults', async () => {
    const props = await sql`select uid, currency, checkin_time, checkout_time, default_min_stay, base_price, is_active
      from properties order by uid`;
    expect(props).toEqual([
      { uid: 'pr_1', currency: 'EUR', checkin_time: 15, checkout_time: 11, default_min_stay: 1, base_price: null, is_active: true },
      { uid: 'pr_2', currency: 'EUR', checkin_time: 15, checkout_time: 11, default_min_stay: 1, base_price: null, is_active: true },
      { uid: 'pr_3', currency: 'USD', checkin_time: 15, checkout_time: 11, default_min_stay: 1, base_price: null, is_active: true },
    ]);
  });

  it('from now on refuses a holding booking over held nights, and accepts one once they are free', async () => {
    const fresh = { ...booking('bk_new', 'pr_2', '2030-01-14', '2030-01-16', 'accepted', '2029-12-10 10:00:00'), listing_uid: 'li_pr_2', guest_uid: 'gu_bk_other' };
    await expect(sql`insert into bookings ${sql(fresh)}`).rejects.toThrow(/bookings_no_overlap/);
    await sql`update bookings set booking_status = 'cancelled' where booking_uid = 'bk_other'`;
    await sql`insert into bookings ${sql(fresh)}`;
  });

  it('refuses a reference to another company\'s row', async () => {
    const foreign = { ...booking('bk_x', 'pr_3', '2031-01-01', '2031-01-02', 'accepted', '2030-01-01 10:00:00'), company_uid: 'co_b' };
    await expect(sql`insert into bookings ${sql(foreign)}`).rejects.toThrow(/foreign key/);
  });

  it('holds nights in exactly the statuses of holdingStatuses (the constraint and the code agree)', async () => {
    const [c] = await sql<{ def: string }[]>`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'bookings_no_overlap'`;
    const listed = [...c!.def.matchAll(/'([a-z_]+)'::text/g)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...holdingStatuses].sort());
  });
});
