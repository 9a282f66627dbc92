import { sql } from 'drizzle-orm';
import { calendarGridQuery, selectCalendarGrid } from '../shared/domain/console/index.js';
import { addDays, localDate } from '../shared/infra/time.js';
import { ConsoleClient, createUser } from '../test/support/console.js';
import { bookingRow, createBookings } from '../test/support/factories.js';
import { freePort, startProc } from './lib/procs.js';
import { createBenchEnv, redisUrl, serviceEnv } from './lib/setup.js';

/*
 * `npm run bench -- --multi-calendar` (issue 41): the multi-calendar page (/app/calendar) over
 * 200 properties x 31 days, every date priced, a stay of 3 nights every 5 days on each property.
 * One API process; a signed-in owner GETs the page RUNS times (after a warm-up): the median and
 * p90 of the answer's time on loopback (the server's time plus a local round trip), the page's
 * size, and the grid's one statement alone, in this process. Target: median under 300 ms.
 * Not a test: it asserts nothing.
 */

const PROPERTIES = 200;
const DAYS = 31;
const RUNS = 20;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

const env = await createBenchEnv(PROPERTIES);
let api: Awaited<ReturnType<typeof startProc>> | undefined;
try {
  const db = env.database.db;
  const from = localDate('UTC');
  const to = addDays(from, DAYS - 1);
  await db.execute(sql`update properties set city = case when uid like '%0' then 'Lisbon' else 'New York' end, base_price = 100 where company_uid = 'co_bench'`);
  await db.execute(sql`
    insert into calendar_days (company_uid, property_uid, date, price, currency, price_seq, min_stay, min_stay_seq, last_seq, updated_dttm)
    select 'co_bench', p.uid, g.day::date, 90 + (extract(day from g.day)::int % 7) * 10, 'USD', 1, 2, 1, 1, now()
      from properties p cross join generate_series(${from}::date, ${to}::date, interval '1 day') as g(day)
     where p.company_uid = 'co_bench'`);
  const stays = env.propertyUids.flatMap((p) =>
    Array.from({ length: Math.floor(DAYS / 5) }, (_, i) =>
      bookingRow('co_bench', p, { localCheckinDttm: `${addDays(from, i * 5)} 15:00:00`, localCheckoutDttm: `${addDays(from, i * 5 + 3)} 11:00:00`, legacyOverlap: false }),
    ),
  );
  await createBookings(db, stays);
  await db.execute(sql`analyze`);
  console.log(`seeded ${PROPERTIES} properties x ${DAYS} days, ${stays.length} stays`);

  const owner = await createUser(db, 'co_bench', { role: 'owner' });
  const port = await freePort();
  api = await startProc('bin/api.ts', serviceEnv(env, port, redisUrl), /API listening/, 60_000);
  const c = new ConsoleClient(`http://127.0.0.1:${port}`);
  const signed = await c.signIn(owner.email, owner.password);
  if (signed.status !== 303) throw new Error(`sign-in answered ${signed.status}`);

  const path = `/app/calendar?from=${from}&days=${DAYS}`;
  let bytes = 0;
  for (let i = 0; i < 5; i++) bytes = (await c.get(path)).text.length;
  const page: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const res = await c.get(path);
    page.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`the page answered ${res.status}`);
  }
  const query: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await selectCalendarGrid(db, 'co_bench', { from, to });
    query.push(performance.now() - t0);
  }
  const plan = await db.execute<{ 'QUERY PLAN': string }>(sql`explain (analyze, buffers) ${calendarGridQuery('co_bench', { from, to })}`);
  console.error(plan.map((r) => r['QUERY PLAN']).join('\n'));
  console.log(`multi-calendar page, ${PROPERTIES} properties x ${DAYS} days (${(bytes / 1024).toFixed(0)} KB of HTML):`);
  console.log(`  page GET  median ${pct(page, 0.5).toFixed(1)} ms, p90 ${pct(page, 0.9).toFixed(1)} ms (${RUNS} runs; target < 300 ms)`);
  console.log(`  grid statement alone  median ${pct(query, 0.5).toFixed(1)} ms, p90 ${pct(query, 0.9).toFixed(1)} ms`);
} finally {
  await api?.stop();
  await env.cleanup();
}
