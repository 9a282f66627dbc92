import { expect, it } from 'vitest';

/*
 * Issue 39 M2's probe (`npm run probe:terminations`, PROBE_SECONDS, default 40; TEST_LOG_LEVEL=warn
 * shows why any answer was a 503): 8 clients read (get-calendar-data, bookings) and write
 * (set-calendar-batch, each with its own Idempotency-Key) while every client backend of the
 * database is terminated every 2 s. Prints the answers by status and checks that every accepted
 * request is stored once. A command, not part of npm test (it takes its PROBE_SECONDS).
 */
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { futureDates, waitForFinal } from '../support/pipeline.js';
import { useWorld } from '../support/world.js';

const t = useWorld({ queue: 'redis', env: { RATE_LIMIT_PER_MINUTE: '100000' } });
const SECONDS = Number(process.env.PROBE_SECONDS ?? 40);

it('reads and writes while backends are terminated: no 503, nothing stored twice', { timeout: 300_000 }, async () => {
  const db = t.tdb.database.db;
  const company = await createCompany(db);
  const property = await createProperty(db, company);
  const { token } = await createToken(db, company, ['calendar-control', 'messaging', 'tasks']);
  await t.p.startWorkers(2);
  const statuses = new Map<string, number>();
  const accepted: string[] = [];
  const keys: string[] = [];
  const note = (k: string) => statuses.set(k, (statuses.get(k) ?? 0) + 1);
  const end = Date.now() + SECONDS * 1000;
  let terminations = 0;
  let killedBackends = 0;
  const killer = (async () => {
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, 2000));
      const rows = await t.tdb.database.sql`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`;
      terminations++;
      killedBackends += rows[0]!.n as number;
    }
  })();
  let seq = 0;
  const dates = futureDates(30, 5);
  const clients = Array.from({ length: 8 }, async (_, c) => {
    while (Date.now() < end) {
      const i = seq++;
      if (c % 2 === 0) {
        const res = c % 4 === 0
          ? await t.p.api.get(`/api/v1/get-calendar-data?property_uid=${property}&from_date=${dates[0]}&to_date=${dates[29]}`, token)
          : await t.p.api.get('/api/v1/bookings', token);
        note(`GET ${res.status}`);
      } else {
        const key = `probe-${i}`;
        const res = await t.p.api.post('/api/v1/set-calendar-batch', { property_uid: property, days: dates.slice(i % 20, (i % 20) + 10).map((date) => ({ date, price: 100 + (i % 50), currency: 'EUR' })) }, token, { 'Idempotency-Key': key });
        note(`POST ${res.status}`);
        if (res.status === 200) {
          accepted.push(...(res.body.data.request_uids as string[]));
          keys.push(key);
        }
      }
    }
  });
  await Promise.all([...clients, killer]);
  const final = await waitForFinal(t.p.api, token, accepted, 120_000);
  const rows = await t.tdb.database.sql`select count(*)::int as n, count(distinct uid)::int as u from calendar_requests where company_uid = ${company}`;
  const keyRows = await t.tdb.database.sql`select count(*)::int as n from idempotency_keys where company_uid = ${company}`;
  console.log(JSON.stringify({ seconds: SECONDS, terminations, killedBackends, statuses: Object.fromEntries(statuses), acceptedRequests: accepted.length, requestRows: rows[0], keysAnswered200: keys.length, keyRows: keyRows[0]!.n, final: final.length }));
  expect(rows[0]!.n).toBe(accepted.length);
  expect(rows[0]!.u).toBe(accepted.length);
  expect(keyRows[0]!.n).toBe(keys.length);
  expect([...statuses.keys()].filter((k) => !k.endsWith(' 200'))).toEqual([]);
});
