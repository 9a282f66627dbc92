import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cloneBookings } from '../../bench/csv-seed.js';
import { MAX_CONCURRENT_REPORTS, REPORT_STATEMENT_TAG } from '../../shared/domain/reports/index.js';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * Issue 39: the CSV report slots of a process (MAX_CONCURRENT_REPORTS) are shared fairly: a
 * company already writing a report never takes the last free one, so one company cannot make
 * every other company's report a 429. Each report is held open by a client that read its first
 * bytes and nothing more (the stream waits on it).
 */

const ROWS = 20_000;
const t = useWorld({ api: true });
const tokens: string[] = [];

beforeAll(async () => {
  const db = t.tdb.database.db;
  for (let i = 0; i < 3; i++) {
    const company = await createCompany(db);
    tokens.push((await createToken(db, company, ['reports'])).token);
    const [template] = await createBookings(db, [bookingRow(company, await createProperty(db, company))]);
    await cloneBookings(t.tdb.database.sql, template!.bookingUid, ROWS - 1, `bk_c${i}_`);
  }
});

const open = (token: string) => fetch(`${t.api.baseUrl}/api/v1/reservation-report-csv?access_token=${token}`, { method: 'POST' });
async function held(token: string) {
  const res = await open(token);
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  await reader.read();
  return reader;
}
const openStatements = async () =>
  [...(await t.tdb.database.db.execute(sql`select 1 from pg_stat_activity where query like ${`${REPORT_STATEMENT_TAG}%`} and state <> 'idle' and pid <> pg_backend_pid()`))].length;
async function settled() {
  for (let i = 0; i < 100 && (await openStatements()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
}
const refusal = async (res: Response) => [res.status, res.headers.get('retry-after'), ((await res.json()) as { error: { code: number; message: string } }).error] as const;

describe(`the ${MAX_CONCURRENT_REPORTS} report slots of a process`, () => {
  it('one company holds at most all but one: its next report is 429, another company’s is written', async () => {
    const [a, b] = [tokens[0]!, tokens[1]!];
    const mine = [];
    for (let i = 0; i < MAX_CONCURRENT_REPORTS - 1; i++) mine.push(await held(a));
    const [status, retryAfter, error] = await refusal(await open(a));
    expect([status, retryAfter, error.code]).toEqual([429, '5', 16]);
    expect(error.message).toMatch(/last slot is kept for others/);
    const theirs = await held(b);
    for (const r of [...mine, theirs]) await r.cancel();
    await settled();
  });

  it('every slot taken (by two companies): 429 to anyone, and a slot again once one is released', async () => {
    const [a, b, c] = [tokens[0]!, tokens[1]!, tokens[2]!];
    const all = [await held(a), await held(a), await held(b)];
    expect(all).toHaveLength(MAX_CONCURRENT_REPORTS);
    for (const who of [a, b, c]) expect((await refusal(await open(who))).slice(0, 2)).toEqual([429, '5']);
    await all[0]!.cancel();
    await settled();
    const next = await held(c);
    for (const r of [...all.slice(1), next]) await r.cancel();
    await settled();
  });
});
