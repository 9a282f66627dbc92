/*
 * get-calendar-data over a year of one property with 50 bookings: the read of issue 11 (bookings
 * holding nights, property defaults, the first listing) against the plain read of before (stored
 * rows only), both on the same data in the same run, plus the whole GET through the API.
 * Run by bench/run.ts; `EXPLAIN (ANALYZE, BUFFERS)` of the new read is printed to stderr.
 */
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { calendarViewQuery, readCalendarView } from '../shared/domain/calendar/index.js';
import type { BenchEnv } from './lib/setup.js';

const RUNS = 300;
const BOOKINGS = 50;

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? NaN;

/** The read of get-calendar-data before issue 11: stored rows only, nulls where never set. */
async function plainRead(env: BenchEnv, propertyUid: string, from: string, to: string) {
  return env.database.db.execute(sql`
    select to_char(g.day, 'YYYY-MM-DD') as date, c.is_available, c.price::text as price, c.currency, c.min_stay, c.notes,
           to_char(c.updated_dttm at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as updated_dttm, c.request_uid
      from generate_series(${from}::date, ${to}::date, interval '1 day') as g(day)
      left join calendar_days c
        on c.property_uid = ${propertyUid} and c.company_uid = 'co_bench' and c.date = g.day::date
     order by g.day`);
}

async function timed(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 30; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/** 50 stays of 3-5 nights spread over the year (some cancelled), every other date priced. */
async function seedYear(env: BenchEnv, propertyUid: string, from: string) {
  const s = env.database.sql;
  await s`insert into hosts (company_uid, uid, name, platform_type) values ('co_bench', 'h_bench', 'Host', 'airbnb')`;
  await s`insert into guests (company_uid, uid, name, platform_type) values ('co_bench', 'g_bench', 'Guest', 'airbnb')`;
  await s`insert into listings (company_uid, uid, property_uid, platform_type, name, host_uid)
          values ('co_bench', 'ls_bench_airbnb', ${propertyUid}, 'airbnb', 'Flat', 'h_bench'),
                 ('co_bench', 'ls_bench_direct', ${propertyUid}, 'airgms', 'Flat', 'h_bench')`;
  const start = Date.parse(from);
  const day = (n: number) => new Date(start + n * 86_400_000).toISOString().slice(0, 10);
  for (let i = 0; i < BOOKINGS; i++) {
    const checkin = day(i * 7);
    const checkout = day(i * 7 + 3 + (i % 3));
    await s`insert into bookings (booking_uid, company_uid, property_uid, listing_uid, guest_uid, host_uid, reservation_code,
              readable_reservation_code, booking_status, platform_type, number_of_guests, local_checkin_dttm, local_checkout_dttm,
              created_dttm, updated_dttm, booked_dttm, currency, price_base, price_extras, price_fee, price_tax, price_total)
            values (${`bk_bench_${i}`}, 'co_bench', ${propertyUid}, 'ls_bench_airbnb', 'g_bench', 'h_bench', ${`R${i}`}, ${`R${i}`},
              ${i % 10 === 9 ? 'cancelled' : 'accepted'}, 'airbnb', 2, ${`${checkin} 15:00:00`}, ${`${checkout} 11:00:00`},
              now(), now(), now(), 'USD', 100, 0, 0, 0, 100)`;
  }
  await s`insert into calendar_days (company_uid, property_uid, date, price, currency, price_seq, is_available, availability_seq, last_seq, request_uid, updated_dttm)
          select 'co_bench', ${propertyUid}, d::date, 120, 'USD', 1, (extract(doy from d)::int % 5 <> 0), 1, 1, 'rq_bench', now()
            from generate_series(${from}::date, ${from}::date + 365, interval '2 days') d`;
  // Other properties' days around it, as after a run of (b): the read must not scan them.
  await s`insert into calendar_days (company_uid, property_uid, date, price, currency, price_seq, last_seq, request_uid, updated_dttm)
          select 'co_bench', pr.uid, d::date, 99, 'USD', 1, 1, 'rq_other', now()
            from properties pr cross join generate_series(${from}::date, ${from}::date + 364, interval '1 day') d
           where pr.company_uid = 'co_bench' and pr.uid <> ${propertyUid}
          on conflict do nothing`;
  for (const t of ['bookings', 'calendar_days', 'listings', 'properties']) await s.unsafe(`analyze ${t}`);
}

export async function benchCalendarRead(env: BenchEnv, apiUrl: string, propertyUid: string) {
  const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.parse(from) + 365 * 86_400_000).toISOString().slice(0, 10);
  await seedYear(env, propertyUid, from);
  const url = `${apiUrl}/api/v1/get-calendar-data?property_uid=${propertyUid}&from_date=${from}&to_date=${to}&access_token=${env.token}`;
  const http = await timed(async () => {
    const res = await fetch(url);
    if (res.status !== 200) throw new Error(`get-calendar-data -> ${res.status}`);
    await res.arrayBuffer();
  });
  const view = await timed(() => readCalendarView(env.database.db, 'co_bench', propertyUid, from, to));
  const plain = await timed(() => plainRead(env, propertyUid, from, to));
  const held = (await readCalendarView(env.database.db, 'co_bench', propertyUid, from, to)).filter((r) => r.unavailable_reason === 'Blocked by reservation').length;
  const q = new PgDialect().sqlToQuery(calendarViewQuery('co_bench', propertyUid, from, to));
  const plan = await env.database.sql.unsafe(`explain (analyze, buffers) ${q.sql}`, q.params as never[]);
  process.stderr.write(`\nEXPLAIN of the get-calendar-data read (one year, ${BOOKINGS} bookings):\n${plan.map((r) => r['QUERY PLAN']).join('\n')}\n\n`);
  return { http, view, plain, held };
}

export const fmtMs = (xs: number[]) => `p50 ${p50(xs).toFixed(2)} ms, p99 ${p99(xs).toFixed(2)} ms`;
export const median = p50;
