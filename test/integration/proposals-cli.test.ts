import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../bin/cli/main.js';
import { properties } from '../../shared/infra/db/schema/index.js';
import { runCliProcess, type CliRun } from '../support/cli.js';
import { createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';
import { fastQueueEnv, futureDates } from '../support/pipeline.js';
import { until } from '../support/ops.fixture.js';

/*
 * `npm run cli -- proposal list|approve|reject` over this file's own database, and the expiry as
 * the scheduled job expire-proposals of a worker.
 */

const t = useWorld({ api: true });
const w = {} as { company: string; property: string; token: string };

beforeAll(async () => {
  const db = t.tdb.database.db;
  w.company = await createCompany(db);
  w.property = await createProperty(db, w.company, { name: 'Sea View' });
  await db.update(properties).set({ calendarControlAllowed: false }).where(sql`uid = ${w.property}`);
  w.token = (await createToken(db, w.company, ['pricing-management'])).token;
});

const cli = async (...args: string[]): Promise<CliRun> => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { env: { DATABASE_URL: t.tdb.url }, io: { result: (l) => (stdout += `${l}\n`), note: (l) => (stderr += `${l}\n`) } });
  return { code, stdout, stderr };
};
const propose = async (n: number, offset: number) => {
  const dates = futureDates(n, offset);
  const res = await t.api.post('/api/v1/calendar', { property_uid: w.property, start_date: dates[0], end_date: dates[n - 1], price: 99, currency: 'EUR', min_stay: 3 }, w.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [row] = (await t.tdb.database.sql`select proposal_uid from calendar_requests where uid = ${res.body.data.request_uids[0]}`) as unknown as Array<{ proposal_uid: string }>;
  return { uid: row!.proposal_uid, dates, requestUids: res.body.data.request_uids as string[] };
};
const statusesOf = async (uids: string[]) => (await t.tdb.database.sql`select status from calendar_requests where uid = any(${uids}) order by seq`).map((r) => r.status as string);
const proposalStatus = async (uid: string) => ((await t.tdb.database.sql`select status, decided_by from calendar_proposals where uid = ${uid}`) as unknown as Array<{ status: string; decided_by: string }>)[0];

describe('npm run cli -- proposal', { timeout: 60_000 }, () => {
  it('list prints each pending proposal and its days beside the current values', async () => {
    const p = await propose(2, 10);
    const res = await cli('proposal', 'list', '--company', w.company);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(`${p.uid}  property ${w.property} (Sea View)`);
    expect(res.stdout).toContain(`  ${p.dates[0]}  price 99 EUR (now - USD)  min_stay 3 (now 1)`);
    const none = await cli('proposal', 'list', '--company', await createCompany(t.tdb.database.db));
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', expect.stringContaining('no pending proposals')]);
    await cli('proposal', 'reject', '--proposal', p.uid);
  });

  it('approve --dates approves those days, stores the rest disabled, run as a person runs it', async () => {
    const p = await propose(2, 20);
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: t.tdb.url };
    delete env.REDIS_URL;
    const res = await runCliProcess(['proposal', 'approve', '--proposal', p.uid, '--dates', p.dates[1]!], env);
    expect([res.code, res.stdout], res.stderr).toEqual([0, `${p.uid} partly_approved\n`]);
    expect(await statusesOf(p.requestUids)).toEqual(['queued']);
    expect(await proposalStatus(p.uid)).toEqual({ status: 'partly_approved', decided_by: 'cli' });
    const again = await cli('proposal', 'reject', '--proposal', p.uid);
    expect([again.code, again.stderr]).toEqual([1, `error: Proposal ${p.uid} is not pending (it is partly_approved)\n`]);
  });

  it('reject disables every request; approve without --dates approves all', async () => {
    const [a, b] = [await propose(1, 30), await propose(1, 31)];
    expect((await cli('proposal', 'reject', '--proposal', a.uid)).stdout).toBe(`${a.uid} rejected\n`);
    expect(await statusesOf(a.requestUids)).toEqual(['disabled']);
    expect((await cli('proposal', 'approve', '--proposal', b.uid)).stdout).toBe(`${b.uid} approved\n`);
    expect(await statusesOf(b.requestUids)).toEqual(['queued']);
  });

  it('refuses a bad command line (exit 2) and an unknown proposal or date (exit 1), changing nothing', async () => {
    const p = await propose(1, 40);
    expect((await cli('proposal', 'approve')).code).toBe(2);
    expect((await cli('proposal', 'approve', '--proposal', p.uid, '--dates', 'tomorrow')).code).toBe(2);
    const unknown = await cli('proposal', 'reject', '--proposal', 'pp_nope');
    expect([unknown.code, unknown.stderr]).toEqual([1, 'error: unknown proposal pp_nope\n']);
    const notADay = await cli('proposal', 'approve', '--proposal', p.uid, '--dates', '2031-01-01');
    expect([notADay.code, notADay.stderr]).toEqual([1, `error: 2031-01-01 is not a date of proposal ${p.uid}\n`]);
    expect((await proposalStatus(p.uid))!.status).toBe('pending');
  });
});

describe('expiry', () => {
  it('runs as the scheduled job expire-proposals of a worker', async () => {
    const p = await propose(1, 50);
    await t.tdb.database.sql`update calendar_proposals set created_dttm = now() - interval '15 days' where uid = ${p.uid}`;
    const queue = t.queue('postgres');
    const ctx = await t.runtime({ env: fastQueueEnv, queue: queue.conn });
    const worker = await t.startWorker(ctx, queue.conn);
    try {
      await until('the scheduled expiry to run', async () => (await proposalStatus(p.uid))!.status === 'expired');
      expect(await statusesOf(p.requestUids)).toEqual(['disabled']);
    } finally {
      await worker.close();
      await ctx.close();
      await queue.cleanup();
    }
  });
});
