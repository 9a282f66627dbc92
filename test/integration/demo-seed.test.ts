import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import { scopes } from '../../shared/domain/auth/index.js';
import { bookingStatuses, platformTypes } from '../../shared/domain/bookings/index.js';
import { taskStatuses, taskTypes } from '../../bin/demo/demo-data.js';
import { seedDemo, type DemoSeed } from '../../bin/demo/seed.js';

const now = new Date('2030-06-15T12:00:00Z');

describe('demo seed', () => {
  const t = useWorld({ api: true });
  let demo: DemoSeed;
  const progress: number[] = [];
  const rows = async <T>(query: ReturnType<typeof sql>) => (await t.tdb.database.db.execute(query)) as unknown as T[];

  beforeAll(async () => {
    demo = await seedDemo(t.api.ctx.services, { bookings: 1234, now, chunkSize: 500, onProgress: (done) => progress.push(done) });
  });

  it('writes exactly the bookings asked for, in chunks, reporting progress after each', async () => {
    const [count] = await rows<{ n: number }>(sql`select count(*)::int as n from bookings where company_uid = ${demo.companyUid}`);
    expect(count!.n).toBe(1234);
    expect(demo.bookings).toBe(1234);
    expect(progress).toEqual([500, 1000, 1234]);
  });

  it('covers every booking status and platform', async () => {
    const statuses = await rows<{ v: string }>(sql`select distinct booking_status as v from bookings where company_uid = ${demo.companyUid}`);
    const platforms = await rows<{ v: string }>(sql`select distinct platform_type as v from bookings where company_uid = ${demo.companyUid}`);
    expect(statuses.map((r) => r.v).sort()).toEqual([...bookingStatuses].sort());
    expect(platforms.map((r) => r.v).sort()).toEqual([...platformTypes].sort());
  });

  it('spreads stays over past and future, on properties in several time zones', async () => {
    const [spread] = await rows<{ past: number; future: number; zones: number; bad: number }>(sql`
      select count(*) filter (where b.local_checkout_dttm < ${'2030-06-15 00:00:00'})::int as past,
             count(*) filter (where b.local_checkin_dttm > ${'2030-06-16 00:00:00'})::int as future,
             count(distinct p.time_zone)::int as zones,
             count(*) filter (where b.local_checkout_dttm <= b.local_checkin_dttm
                                 or b.booked_dttm > ${'2030-06-15 12:00:00'}
                                 or b.updated_dttm < b.created_dttm)::int as bad
      from bookings b join properties p on p.uid = b.property_uid
      where b.company_uid = ${demo.companyUid}`);
    expect(spread!.past).toBeGreaterThan(300);
    expect(spread!.future).toBeGreaterThan(300);
    expect(spread!.zones).toBeGreaterThanOrEqual(2);
    expect(spread!.bad).toBe(0);
  });

  it('stores price components whose sum is the total, and leaves some door codes null', async () => {
    const [check] = await rows<{ mismatched: number; no_code: number; with_code: number }>(sql`
      select count(*) filter (where price_total <> price_base + price_extras + price_fee + price_tax)::int as mismatched,
             count(*) filter (where door_access_code is null)::int as no_code,
             count(*) filter (where door_access_code is not null)::int as with_code
      from bookings where company_uid = ${demo.companyUid}`);
    expect(check!.mismatched).toBe(0);
    expect(check!.no_code).toBeGreaterThan(0);
    expect(check!.with_code).toBeGreaterThan(0);
  });

  it('creates a team with pending members and tasks of every type and status', async () => {
    // docs/api.md (issue 10): members are `pending` or `active`; the old active flag became member_status.
    const team = await rows<{ member_status: string; n: number }>(sql`
      select member_status, count(*)::int as n from team_members where company_uid = ${demo.companyUid} group by 1`);
    expect(team.map((r) => r.member_status).sort()).toEqual(['active', 'pending']);
    const kinds = await rows<{ task_type: string; task_status: string; unassigned_with_member: number }>(sql`
      select task_type, task_status,
             count(*) filter (where (task_status = 'unassigned') = (team_member_uid is not null))::int as unassigned_with_member
      from tasks where company_uid = ${demo.companyUid} group by 1, 2`);
    expect(kinds).toHaveLength(taskTypes.length * taskStatuses.length);
    // Unassigned tasks have no team member, every other status has one.
    expect(kinds.every((k) => k.unassigned_with_member === 0)).toBe(true);
  });

  it('returns a token with every scope that reads the demo bookings over the API', async () => {
    const [token] = await rows<{ scopes: string[] }>(sql`select scopes from access_tokens where uid = ${demo.tokenUid}`);
    expect([...token!.scopes].sort()).toEqual([...scopes].sort());
    const res = await t.api.get('/api/v1/bookings', demo.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(25);
    expect(res.body.meta).toEqual({ page: 1, has_next_page: true });
    // smart-locks is among the scopes: the door code key is present.
    expect(res.body.data[0]).toHaveProperty('door_access_code');
    expect(demo.propertyUids).toContain(res.body.data[0].property_uid);
  });

  it('opens threads on several platforms with messages both ways, delivered, none after now', async () => {
    expect(demo.threads).toBeGreaterThanOrEqual(5);
    const res = await t.api.get('/api/v1/get-threads', demo.token);
    expect(res.status).toBe(200);
    const threads = res.body.data as Array<{ platformType: string; messages: Array<{ direction: string; messageStatus: string; messageDttm: string }> }>;
    expect(threads).toHaveLength(demo.threads);
    expect(new Set(threads.map((th) => th.platformType)).size).toBeGreaterThanOrEqual(4);
    const all = threads.flatMap((th) => th.messages);
    expect(all).toHaveLength(demo.messages);
    expect(new Set(all.map((m) => m.direction))).toEqual(new Set(['inbound', 'outbound']));
    expect(threads.every((th) => th.messages.length >= 2)).toBe(true);
    expect(all.every((m) => m.messageStatus === 'completed' && m.messageDttm <= '2030-06-15 12:00:00')).toBe(true);
    const [channels] = await rows<{ email: number }>(sql`select count(*)::int as email from messages where company_uid = ${demo.companyUid} and channel = 'email'`);
    expect(channels!.email).toBeGreaterThan(0);
  });

  it('gives the same statuses, dates and prices for the same seed', async () => {
    const shape = async (companyUid: string) =>
      rows<{ s: string }>(sql`
        select booking_status || ' ' || platform_type || ' ' || local_checkin_dttm || ' ' || price_total || ' ' || currency as s
        from bookings where company_uid = ${companyUid} order by 1`);
    const a = await seedDemo(t.api.ctx.services, { bookings: 200, now, seed: 7 });
    const b = await seedDemo(t.api.ctx.services, { bookings: 200, now, seed: 7 });
    const c = await seedDemo(t.api.ctx.services, { bookings: 200, now, seed: 8 });
    expect(await shape(a.companyUid)).toEqual(await shape(b.companyUid));
    expect(await shape(a.companyUid)).not.toEqual(await shape(c.companyUid));
  });
});
