import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cloneBookings } from '../../bench/csv-seed.js';
import { REPORT_STATEMENT_TAG } from '../../shared/domain/reports/index.js';
import { bookingRow, createBookings, createCompany, createProperty, createToken } from '../support/factories.js';
import { useWorld } from '../support/world.js';

/*
 * The reports are streamed (docs/api.md "Reservation requests, listing status, door codes,
 * reports"): the first bytes leave before the last row is read, the database is read only as fast
 * as the client takes the answer, and a client that goes away stops the statement.
 */

const ROWS = 40_000;
const t = useWorld({ api: true });
const w = {} as { token: string };

beforeAll(async () => {
  const db = t.tdb.database.db;
  const company = await createCompany(db);
  const property = await createProperty(db, company);
  w.token = (await createToken(db, company, ['reports'])).token;
  const [template] = await createBookings(db, [bookingRow(company, property)]);
  await cloneBookings(t.tdb.database.sql, template!.bookingUid, ROWS - 1);
});

const open = (signal?: AbortSignal) =>
  fetch(`${t.api.baseUrl}/api/v1/reservation-report-csv?access_token=${w.token}`, { method: 'POST', ...(signal ? { signal } : {}) });

/** The report statements the database is running (or holding open as a suspended cursor). */
async function openReportStatements(): Promise<Array<{ state: string }>> {
  const rows = await t.tdb.database.db.execute<{ state: string }>(
    sql`select state from pg_stat_activity where query like ${`${REPORT_STATEMENT_TAG}%`} and state <> 'idle' and pid <> pg_backend_pid()`,
  );
  return [...rows];
}

async function waitFor(check: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe('the reports are streamed', () => {
  it('sends the first bytes while the cursor is still open, reads on as the client reads, ends with every row', async () => {
    const res = await open();
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    let text = decoder.decode(first.value, { stream: true });
    expect(text.startsWith('booking_uid,')).toBe(true);
    // The client stops reading: back-pressure keeps the cursor open (not read to the end).
    await new Promise((r) => setTimeout(r, 300));
    expect(await openReportStatements()).toHaveLength(1);
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value, { stream: true });
    expect(text.split('\r\n')).toHaveLength(ROWS + 2);
    expect(await waitFor(async () => (await openReportStatements()).length === 0)).toBe(true);
  });

  it('a client that disconnects mid-stream stops the statement and frees its connection', async () => {
    const aborted = new AbortController();
    const res = await open(aborted.signal);
    const reader = res.body!.getReader();
    await reader.read();
    expect(await openReportStatements()).toHaveLength(1);
    aborted.abort();
    expect(await waitFor(async () => (await openReportStatements()).length === 0)).toBe(true);
    // Nothing leaked: the process's report slots and pool are whole again (4 > the 3 slots).
    for (let i = 0; i < 4; i++) {
      const again = await open();
      expect(again.status).toBe(200);
      await again.body!.cancel();
      expect(await waitFor(async () => (await openReportStatements()).length === 0)).toBe(true);
    }
  });
  // The cap on reports written at once, and its fair share between companies: reports-fair.test.ts.
});

describe('a client that stops reading without closing', () => {
  const s = useWorld({ api: true, env: { REPORT_STALL_MS: '500' } });
  it('is cut off after REPORT_STALL_MS, its statement ended', async () => {
    const db = s.tdb.database.db;
    const company = await createCompany(db);
    const token = (await createToken(db, company, ['reports'])).token;
    const [template] = await createBookings(db, [bookingRow(company, await createProperty(db, company))]);
    await cloneBookings(s.tdb.database.sql, template!.bookingUid, ROWS - 1);
    const res = await fetch(`${s.api.baseUrl}/api/v1/reservation-report-csv?access_token=${token}`, { method: 'POST' });
    const reader = res.body!.getReader();
    await reader.read();
    const open = async () => [...(await db.execute(sql`select 1 from pg_stat_activity where query like ${`${REPORT_STATEMENT_TAG}%`} and state <> 'idle'`))].length;
    expect(await open()).toBe(1);
    // Reads nothing more: within a few stall periods the server has given up.
    expect(await waitFor(async () => (await open()) === 0)).toBe(true);
    await expect(async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read());
    }).rejects.toThrow();
  });
});
