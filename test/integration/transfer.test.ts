import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../support/world.js';
import { runCli } from '../../bin/cli/main.js';
import { seedDemo, type DemoSeed } from '../../bin/demo/seed.js';
import { calendarDays, companies } from '../../shared/infra/db/schema/index.js';
import { runCliProcess } from '../support/cli.js';
import type { TestDatabase } from '../support/db.js';
import { bookingRow, createBookings, createCompany, createProperty } from '../support/factories.js';

/*
 * `cli export` then `cli import` into an empty database gives back every row; `cli import` refuses
 * bad lines by number and writes the rest, whatever the order of the lines.
 */

/** The source database (the demo seeded) and the one the export is imported into. */
const source = useWorld();
const target = useWorld();
let demo: DemoSeed;
let dir: string;

const cli = async (db: TestDatabase, ...args: string[]) => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { env: { DATABASE_URL: db.url }, io: { result: (l) => (stdout += `${l}\n`), note: (l) => (stderr += `${l}\n`) } });
  return { code, stdout, stderr };
};

/**
 * Every column of every row of the company, minus the bookkeeping timestamps of our own and the
 * migration's legacy_overlap exemption, which never travels (issue 24: checked on its own below).
 */
const tables: Array<[string, string]> = [
  ['hosts', 'uid'], ['guests', 'uid'], ['properties', 'uid'], ['listings', 'uid'], ['team_members', 'uid'], ['bookings', 'booking_uid'], ['tasks', 'task_uid'],
];
async function dump(db: TestDatabase, companyUid: string) {
  const out: Record<string, unknown[]> = {};
  // Calendar days: the values (the stay restrictions of issue 35 among them), not the requests that wrote them.
  out.calendar_days = await db.database.db.execute(sql`
    select property_uid, date, price, currency, is_available, min_stay, notes, max_stay, closed_to_arrival, closed_to_departure
      from calendar_days where company_uid = ${companyUid} order by property_uid collate "C", date`);
  for (const [table, key] of tables) {
    out[table] = await db.database.db.execute(sql`
      select to_jsonb(t) - 'created_at' - 'updated_at' - 'legacy_overlap' as row from ${sql.identifier(table)} t
      where company_uid = ${companyUid} order by ${sql.identifier(key)} collate "C"`);
  }
  return out;
}

beforeAll(async () => {
  const [a, b] = [source.tdb, target.tdb];
  dir = mkdtempSync(path.join(tmpdir(), 'pops-transfer-'));
  demo = await seedDemo((await source.runtime()).services, { bookings: 400 });
  // The rarer shapes: a migrated overlap, a free-text role, a description.
  await createBookings(a.database.db, [bookingRow(demo.companyUid, demo.propertyUids[0]!, { legacyOverlap: true, description: 'Late arrival' })]);
  await a.database.db.execute(sql`update team_members set role = 'inspector' where uid = ${demo.teamMemberUids[0]!}`);
  // Calendar days with every field, the stay restrictions included, and one with nothing but a maximum.
  const prop = demo.propertyUids[0]!;
  await a.database.db.insert(calendarDays).values([
    { companyUid: demo.companyUid, propertyUid: prop, date: '2031-03-01', price: '120.50', currency: 'EUR', isAvailable: false, minStay: 2, notes: 'n', maxStay: 9, closedToArrival: true, closedToDeparture: false },
    { companyUid: demo.companyUid, propertyUid: prop, date: '2031-03-02', maxStay: 4, closedToDeparture: true },
  ]).onConflictDoNothing();
  await b.database.db.insert(companies).values({ uid: demo.companyUid, name: 'Demo Stays (copy)' });
});
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('export then import', () => {
  it('round-trips every row of every table into an empty database', async () => {
    const file = path.join(dir, 'demo.jsonl');
    const exported = await cli(source.tdb, 'export', '--company', demo.companyUid, '--file', file);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(800);
    // Reversed: every reference comes before what it points at; import must not care.
    writeFileSync(file, `${lines.reverse().join('\n')}\n`);
    const imported = await cli(target.tdb, 'import', file, '--company', demo.companyUid);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('0 lines refused');
    expect(await dump(target.tdb, demo.companyUid)).toEqual(await dump(source.tdb, demo.companyUid));
    // The source's exempted booking arrives as an ordinary one: the exemption is never exported.
    expect(lines.some((l) => l.includes('legacy_overlap'))).toBe(false);
    const flagged = await target.tdb.database.db.execute(sql`select count(*)::int as n from bookings where legacy_overlap`);
    expect(flagged[0]).toEqual({ n: 0 });
  });

  it('never takes legacy_overlap from a line: a booking on nights another holds is refused, not double-booked (issue 24)', async () => {
    const db = target.tdb.database.db;
    const company = await createCompany(db, 'Overlap Co');
    const property = await createProperty(db, company);
    const [held] = await createBookings(db, [bookingRow(company, property, { localCheckinDttm: '2031-03-10 15:00:00', localCheckoutDttm: '2031-03-14 11:00:00', bookingStatus: 'accepted', legacyOverlap: false })]);
    const file = path.join(dir, 'overlap.jsonl');
    const exported = await cli(target.tdb, 'export', '--company', company, '--file', file);
    expect(exported.code, exported.stderr).toBe(0);
    const bookingLine = readFileSync(file, 'utf8').trim().split('\n').find((l) => l.includes(held!.bookingUid))!;
    const twin = { ...JSON.parse(bookingLine), booking_uid: 'bk_twin_overlap', reservation_code: 'TWINOVERLAP', legacy_overlap: true };
    writeFileSync(file, `${JSON.stringify(twin)}\n`);
    const imported = await cli(target.tdb, 'import', file, '--company', company);
    expect(imported.code, imported.stderr).toBe(1);
    expect(imported.stderr).toMatch(/line 1: refused/);
    const holding = await db.execute(sql`select booking_uid from bookings where company_uid = ${company} and property_uid = ${property} order by booking_uid`);
    expect(holding.map((r) => (r as { booking_uid: string }).booking_uid)).toEqual([held!.bookingUid]);
  });

  it('imports the same file again as a no-op (upsert by uid)', async () => {
    const file = path.join(dir, 'demo.jsonl');
    const before = await dump(target.tdb, demo.companyUid);
    expect((await cli(target.tdb, 'import', file, '--company', demo.companyUid)).code).toBe(0);
    expect(await dump(target.tdb, demo.companyUid)).toEqual(before);
  });
});

describe('import refusals', () => {
  it('refuses bad lines by number with a reason, writes the rest, and exits 1', async () => {
    const company = await createCompany(target.tdb.database.db, 'Refusals Co');
    const other = await createCompany(target.tdb.database.db, 'Someone else');
    const file = path.join(dir, 'bad.jsonl');
    const all = path.join(dir, 'all.jsonl');
    expect((await cli(source.tdb, 'export', '--company', demo.companyUid, '--file', all)).code).toBe(0);
    const good = readFileSync(all, 'utf8').trim().split('\n');
    const booking = JSON.parse(good.find((l) => l.includes('"kind":"booking"') && l.includes('"accepted"'))!);
    const lines = [
      // Hosts, guests, properties (renamed: the uids of the first test are taken in this database) and listings.
      ...good.filter((l) => /"kind":"(host|guest|property|listing)"/.test(l)).map((l) => l.replace(/"property_uid":"pr_/g, '"property_uid":"pX_')),
      JSON.stringify({ ...booking, booking_uid: 'bk_first', property_uid: booking.property_uid.replace('pr_', 'pX_') }),
      'not json',
      JSON.stringify({ kind: 'planet', uid: 'x' }),
      JSON.stringify({ ...booking, booking_uid: 'bk_dup', property_uid: booking.property_uid.replace('pr_', 'pX_') }),
      JSON.stringify({ ...booking, booking_uid: 'bk_orphan', booking_status: 'cancelled', listing_uid: 'li_nowhere', property_uid: booking.property_uid.replace('pr_', 'pX_') }),
      // Still names the property by its old uid, which this company has not got.
      JSON.stringify({ ...booking, booking_uid: 'bk_elsewhere', booking_status: 'cancelled' }),
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    // Someone else's property uid cannot be taken over.
    await target.tdb.database.db.execute(sql`insert into properties (uid, company_uid, name, time_zone) values ('pX_taken', ${other}, 'Theirs', 'UTC')`);
    const aProperty = JSON.parse(lines.find((l) => l.includes('"kind":"property"'))!);
    writeFileSync(file, `${readFileSync(file, 'utf8')}${JSON.stringify({ ...aProperty, property_uid: 'pX_taken' })}\n`);
    const n = lines.length;
    const res = await runCliProcess(['import', file, '--company', company], { ...process.env, DATABASE_URL: target.tdb.url, REDIS_URL: '' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`line ${n - 4}: refused: not a JSON object`);
    expect(res.stderr).toContain(`line ${n - 3}: refused: kind: must be one of host, guest, property, listing, team_member, booking, task`);
    expect(res.stderr).toContain(`line ${n - 2}: refused: its nights overlap another holding booking of the property`);
    expect(res.stderr).toContain(`line ${n - 1}: refused: listing_uid names nothing of the company`);
    expect(res.stderr).toContain(`line ${n}: refused: property_uid names nothing of the company`);
    expect(res.stderr).toContain(`line ${n + 1}: refused: property_uid pX_taken belongs to another company`);
    expect(res.stderr).toContain('6 lines refused');
    const [written] = (await target.tdb.database.db.execute(sql`select
      (select count(*)::int from bookings where company_uid = ${company}) as bookings,
      (select count(*)::int from properties where company_uid = ${company}) as properties`)) as unknown as Array<{ bookings: number; properties: number }>;
    expect(written).toEqual({ bookings: 1, properties: demo.propertyUids.length });
    const [theirs] = (await target.tdb.database.db.execute(sql`select company_uid, name from properties where uid = 'pX_taken'`)) as unknown as Array<Record<string, string>>;
    expect(theirs).toEqual({ company_uid: other, name: 'Theirs' });
  });

  it('reads from stdin with -', async () => {
    const company = await createCompany(target.tdb.database.db, 'Stdin Co');
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/cli.ts', 'import', '-', '--company', company], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, DATABASE_URL: target.tdb.url, REDIS_URL: '' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stdin.end(`${JSON.stringify({ kind: 'host', host_uid: 'ho_1', name: 'Ana', email: [], phone_number: [], platform_type: 'airbnb' })}\n`);
    const code = await new Promise((r) => child.on('close', r));
    expect(code).toBe(0);
    expect(out.trim()).toBe('1');
  });
});
