/**
 * EXPLAIN and latency of GET /api/v1/bookings on a realistic volume.
 *
 *   npx tsx bench/bookings-explain.ts            # scratch database, dropped afterwards
 *   KEEP_DB=1 npx tsx bench/bookings-explain.ts  # keep it to poke at with psql
 *
 * A scratch database (migrated like the test template) gets 100,000 bookings of one company over 50
 * properties and 20,000 of another, then each query is run exactly as the service builds it
 * (bookingsPageQuery), once under EXPLAIN (ANALYZE, BUFFERS) and 50 times for the median latency.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { bookingsPageQuery, bookingsQuerySchema, selectBookings } from '../shared/domain/bookings/index.js';
import { connectDatabase } from '../shared/infra/db/client.js';
import { migrateDatabase } from '../shared/infra/db/migrate.js';
import { adminDatabaseUrl, databaseUrl } from '../test/support/env.js';

const COMPANY = 'co_bench_a';
const OTHER = 'co_bench_b';
const RUNS = 50;

async function createScratchDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `pops_bench_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminDatabaseUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(name);
  await migrateDatabase(url);
  return {
    name,
    url,
    async drop() {
      const a = postgres(adminDatabaseUrl, { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}

/**
 * One set-based statement per table, shaped like a live account: check-ins over the last seven
 * years and the next one, mostly at 15:00 (so many share a check-in time and the booking_uid
 * tie-break matters); stays of 1-14 nights; created up to 180 days before check-in but never in the
 * future; updated within 30 days of creation, never in the future; a realistic mix of statuses and
 * platforms. "Now" is the database's now(), the same day the queries below are relative to.
 */
async function load(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select setseed(0.42)`;
    await sql`insert into companies (uid, name) values (${COMPANY}, 'Bench A'), (${OTHER}, 'Bench B')`;
    await sql`
      insert into properties (uid, company_uid, name, time_zone)
      select 'pr_a_' || lpad(i::text, 3, '0'), ${COMPANY}, 'Property A' || i, 'Europe/Lisbon' from generate_series(1, 50) i
      union all
      select 'pr_b_' || lpad(i::text, 3, '0'), ${OTHER}, 'Property B' || i, 'Europe/Berlin' from generate_series(1, 10) i`;
    // The stays below are random and overlap; this bench measures paging plans, not the no-overlap
    // constraint, so it is dropped in this scratch database. The rows bookings point at come after.
    await sql`alter table bookings drop constraint bookings_no_overlap`;
    await sql`alter table bookings drop constraint bookings_listing_fk, drop constraint bookings_guest_fk, drop constraint bookings_host_fk`;
    await sql`
      insert into bookings (
        booking_uid, company_uid, property_uid, listing_uid, guest_uid, host_uid, reservation_code,
        readable_reservation_code, booking_status, platform_type, number_of_guests,
        local_checkin_dttm, local_checkout_dttm, created_dttm, updated_dttm, booked_dttm,
        currency, price_base, price_extras, price_fee, price_tax, price_total, door_access_code)
      select
        'bk_' || substr(md5(company || g), 1, 20),
        company,
        property,
        property || '_' || platform,
        'g_' || g,
        'h_1',
        upper(substr(md5('r' || g), 1, 10)),
        upper(substr(md5('r' || g), 1, 6)),
        status,
        platform,
        1 + (r4 * 5)::int,
        checkin,
        (checkin::date + (1 + (r2 * 13)::int)) + time '11:00',
        created,
        created + date_trunc('second', r5 * least(interval '30 days', (now() at time zone 'UTC')::timestamp(0) - created)),
        created - interval '1 minute',
        'EUR',
        round((50 + r6 * 450)::numeric, 2),
        round((r7 * 40)::numeric, 2),
        round((10 + r6 * 30)::numeric, 2),
        round((r6 * 45)::numeric, 2),
        round((60 + r6 * 560)::numeric, 2),
        case when r7 < 0.8 then lpad((r8 * 9999)::int::text, 4, '0') end
      from (
        select g, company, r2, r4, r5, r6, r7, r8,
          case when company = ${COMPANY}
            then 'pr_a_' || lpad((1 + (r1 * 49)::int)::text, 3, '0')
            else 'pr_b_' || lpad((1 + (r1 * 9)::int)::text, 3, '0') end as property,
          case when r3 < 0.70 then 'accepted' when r3 < 0.85 then 'cancelled' when r3 < 0.90 then 'pending'
               when r3 < 0.95 then 'declined' else 'expired' end as status,
          case when r9 < 0.45 then 'airbnb' when r9 < 0.70 then 'booking' when r9 < 0.85 then 'vrbo'
               when r9 < 0.90 then 'homeaway' else 'airgms' end as platform,
          checkin,
          least(
            checkin - (r2 * 180)::int * interval '1 day' - (r4 * 86399)::int * interval '1 second',
            (now() at time zone 'UTC')::timestamp(0) - (r5 * 30)::int * interval '1 day' - (r4 * 86399)::int * interval '1 second'
          ) as created
        from (
          select g,
            case when g <= 100000 then ${COMPANY} else ${OTHER} end as company,
            random() r1, random() r2, random() r3, random() r4, random() r5, random() r6, random() r7,
            random() r8, random() r9,
            current_date - interval '7 years' + (random() * 365 * 8)::int * interval '1 day'
              + case when random() < 0.8 then interval '15 hours' else (random() * 23)::int * interval '1 hour' end
              as checkin
          from generate_series(1, 120000) g
        ) raw
      ) s`;
    await sql`insert into hosts (company_uid, uid, platform_type) select distinct company_uid, host_uid, 'airbnb' from bookings`;
    await sql`insert into guests (company_uid, uid, platform_type) select company_uid, guest_uid, min(platform_type) from bookings group by 1, 2`;
    await sql`
      insert into listings (company_uid, uid, property_uid, platform_type, name, host_uid)
      select company_uid, listing_uid, min(property_uid), min(platform_type), listing_uid, 'h_1' from bookings group by 1, 2`;
    await sql`
      alter table bookings
        add constraint bookings_listing_fk foreign key (company_uid, listing_uid) references listings (company_uid, uid),
        add constraint bookings_guest_fk foreign key (company_uid, guest_uid) references guests (company_uid, uid),
        add constraint bookings_host_fk foreign key (company_uid, host_uid) references hosts (company_uid, uid)`;
    await sql`analyze`;
  } finally {
    await sql.end();
  }
}

/** `YYYY-MM-DD`, `offset` days from today (UTC), the same "now" the data was generated around. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

async function main() {
  const scratch = await createScratchDatabase();
  const database = connectDatabase(scratch.url, { max: 2 });
  try {
    const t0 = Date.now();
    await load(scratch.url);
    console.log(`# ${scratch.name}: 100,000 + 20,000 bookings loaded and analyzed in ${Date.now() - t0} ms\n`);

    const cases: Array<[string, Record<string, string>]> = [
      ['default first page', {}],
      ['page 40', { page: '40' }],
      ['status + platform + stay window, next month', { booking_status: 'accepted', platform_type: 'airbnb,vrbo', from_date: day(10), to_date: day(40) }],
      ['status + platform + stay window, two years ago', { booking_status: 'accepted', platform_type: 'airbnb,vrbo', from_date: day(-730), to_date: day(-700) }],
      ['upcoming stays (from_date = today)', { from_date: day(0) }],
      ['from_date long ago (matches everything: the worst case of filtering first)', { from_date: day(-3650) }],
      ['one property_uid', { property_uid: 'pr_a_007' }],
      ['three property_uids', { property_uid: 'pr_a_007,pr_a_021,pr_a_042' }],
      ['order_by_created_dttm=true', { order_by_created_dttm: 'true' }],
      ['created-date window (one week, two months ago)', { from_created_date: day(-60), to_created_date: day(-54) }],
      ['booked-date window (one week, a month ago)', { from_booked_date: day(-30), to_booked_date: day(-24) }],
      ['updated since yesterday (sync poll)', { from_updated_date: `${day(-1)} 00:00:00` }],
    ];

    for (const [label, params] of cases) {
      const q = bookingsQuerySchema.parse(params);
      const { sql: text, params: bind } = bookingsPageQuery(database.db, COMPANY, q).toSQL();
      for (let i = 0; i < 5; i++) await selectBookings(database.db, COMPANY, q); // warm the cache
      const plan = await database.sql.unsafe<{ 'QUERY PLAN': string }[]>(
        `explain (analyze, buffers) ${text}`,
        bind as postgres.ParameterOrJSON<never>[],
      );
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < RUNS; i++) {
        const start = process.hrtime.bigint();
        rows = (await selectBookings(database.db, COMPANY, q)).length;
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      console.log(`## ${label}  ${new URLSearchParams(params).toString() || '(no filter)'}`);
      console.log(`median ${median(times).toFixed(2)} ms over ${RUNS} runs (round trip through drizzle), ${rows} rows`);
      for (const line of plan) console.log(`  ${line['QUERY PLAN']}`);
      console.log('');
    }
  } finally {
    await database.close();
    if (process.env.KEEP_DB) console.log(`# kept ${scratch.url}`);
    else await scratch.drop();
  }
}

await main();
