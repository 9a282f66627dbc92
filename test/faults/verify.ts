import type { Sql } from '../../shared/infra/db/client.js';
import { readAudit, type AuditFindings } from './audit.js';
import { addDays } from './batches.js';
import type { ApiClient } from './http.js';
import { expectBatch, mayBeLastChanger, PropertyOracle, type ExpectedDay } from './oracle.js';
import type { StreamResult } from './stream.js';

/*
 * After the stream: wait (bounded) until every accepted request is final, then compare what the
 * API reports and what Postgres holds with the oracle built from the accepted batches.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitForFinal(sql: Sql, uids: readonly string[], timeoutMs: number): Promise<{ drained: boolean; pending: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await sql<{ n: number }[]>`
      select count(*)::int as n from calendar_requests
       where uid = any(${sql.array([...uids])}) and status not in ('completed', 'error')`.catch(() => [{ n: -1 }]);
    const pending = rows[0]?.n ?? -1;
    if (pending === 0) return { drained: true, pending };
    if (Date.now() > deadline) return { drained: false, pending };
    await sleep(250);
  }
}

export interface Verdict {
  daysSubmitted: number;
  daysAccepted: number;
  daysApplied: number;
  /** Accepted request-days not applied: days of requests not completed, or days_applied short. */
  daysLost: number;
  statuses: Record<string, number>;
  requests: number;
  /** Most apply attempts any request needed (retries after kills and outages). */
  maxAttempts: number;
  /** Dates whose read-back differs from the oracle in any field or in request_uid. */
  datesWrong: number;
  /** Dates present in the calendar that no accepted batch touched. */
  datesExtra: number;
  /** Requests in Postgres for the suite's properties that no 200 answer named. */
  phantomRequests: number;
  audit: AuditFindings;
  problems: string[];
}

/** What a property's never-set dates read as (docs/api.md, get-calendar-data). */
interface PropertyDefaults {
  currency: string;
  basePrice: number | null;
  defaultMinStay: number;
}

/**
 * One date read back against the oracle, under the calendar-truth contract (docs/api.md): every date
 * answers, a never-set field reads as the property's default (currency, base_price,
 * default_min_stay; open), and the deprecated base_* fields equal price and min_stay. The suite's
 * properties have no bookings, so a date is closed only by a submitted is_available 0.
 */
function sameDay(got: any, want: ExpectedDay | undefined, defaults: PropertyDefaults): boolean {
  const price = want?.price ?? defaults.basePrice;
  const minStay = want?.minStay ?? defaults.defaultMinStay;
  const closed = want?.isAvailable === false;
  return (
    got.price === price &&
    got.base_price === price &&
    got.currency === (want?.price != null ? want.currency : defaults.currency) &&
    got.is_available === (closed ? 0 : 1) &&
    got.unavailable_reason === (closed ? 'Blocked by host' : 'Not blocked') &&
    got.min_stay === minStay &&
    got.base_min_stay === minStay &&
    got.notes === (want?.notes ?? null) &&
    (want === undefined ? got.request_uid === null : mayBeLastChanger(want, got.request_uid)) &&
    (got.updated_dttm === null) === (want === undefined)
  );
}

export async function verify(
  client: ApiClient,
  sql: Sql,
  stream: StreamResult,
  propertyUids: string[],
  opts: { today: string; chunkDays: number },
): Promise<Verdict> {
  const problems: string[] = [];
  const note = (p: string) => problems.length < 40 && problems.push(p);
  let daysSubmitted = 0;
  let daysAccepted = 0;
  const expectedTotal = new Map<string, number>();
  const oracles = propertyUids.map(() => new PropertyOracle());

  stream.accepted.forEach((batches, p) => {
    for (const a of batches) {
      daysSubmitted += a.batch.days.length;
      const exp = expectBatch(a.batch.days, opts.today, opts.chunkDays);
      if (exp.chunks.length !== a.requestUids.length) {
        note(`p${p} b${a.batch.index}: ${a.requestUids.length} request_uids for ${exp.chunks.length} chunks`);
        continue;
      }
      if (JSON.stringify(Object.entries(a.warnings).sort()) !== JSON.stringify(Object.entries(exp.warnings).sort())) {
        note(`p${p} b${a.batch.index}: warnings ${JSON.stringify(a.warnings)} != expected ${JSON.stringify(exp.warnings)}`);
      }
      exp.chunks.forEach((c, i) => expectedTotal.set(a.requestUids[i] as string, c.length));
      daysAccepted += exp.kept.length;
      oracles[p]?.apply(exp, a.requestUids);
    }
  });
  for (const r of stream.refused) daysSubmitted += r.batch.days.length;
  const uids = [...expectedTotal.keys()];

  // Request statuses, read the way a client reads them.
  const statuses: Record<string, number> = {};
  let daysApplied = 0;
  let daysLost = 0;
  let maxAttempts = 0;
  for (let i = 0; i < uids.length; i += 100) {
    const slice = uids.slice(i, i + 100);
    const a = await client.get(`/api/v1/get-request-status?request_uids=${slice.join(',')}`);
    if (a.status !== 200) {
      note(`get-request-status answered ${a.status}: ${JSON.stringify(a.body).slice(0, 200)}`);
      daysLost += slice.reduce((n, u) => n + (expectedTotal.get(u) ?? 0), 0);
      continue;
    }
    for (const s of a.body.data as any[]) {
      statuses[s.request_status] = (statuses[s.request_status] ?? 0) + 1;
      maxAttempts = Math.max(maxAttempts, s.attempts as number);
      const want = expectedTotal.get(s.request_uid) ?? 0;
      const applied = s.request_status === 'completed' ? (s.days_applied as number) : 0;
      daysApplied += applied;
      daysLost += Math.max(0, want - applied);
      if (s.days_total !== want) note(`${s.request_uid}: days_total ${s.days_total} != ${want}`);
      if (s.request_status === 'completed' && applied !== want) note(`${s.request_uid}: days_applied ${applied} != ${want}`);
      if (s.request_status !== 'completed') note(`${s.request_uid}: ${s.request_status} ${s.request_error ?? ''}`);
      if (s.request_status === 'completed' && !s.finished_dttm) note(`${s.request_uid}: completed without finished_dttm`);
    }
  }

  // The calendar, read back over the API: every date of the covered year, field by field.
  let datesWrong = 0;
  let datesExtra = 0;
  const defaultRows = await sql<{ uid: string; currency: string; base_price: number | null; default_min_stay: number }[]>`
    select uid, currency, base_price::float8 as base_price, default_min_stay from properties where uid = any(${sql.array(propertyUids)})`;
  const defaults = new Map(defaultRows.map((r) => [r.uid, { currency: r.currency, basePrice: r.base_price, defaultMinStay: r.default_min_stay }]));
  for (const [p, uid] of propertyUids.entries()) {
    const oracle = oracles[p] as PropertyOracle;
    const propertyDefaults = defaults.get(uid) as PropertyDefaults;
    const a = await client.get(`/api/v1/get-calendar-data?property_uid=${uid}&from_date=${opts.today}&to_date=${addDays(opts.today, 365)}`);
    if (a.status !== 200) {
      note(`get-calendar-data p${p} answered ${a.status}`);
      datesWrong += oracle.days.size;
      continue;
    }
    for (const got of a.body.data as any[]) {
      const want = oracle.days.get(got.date);
      if (!sameDay(got, want, propertyDefaults)) {
        datesWrong++;
        note(`p${p} ${got.date}: got ${JSON.stringify(got)} want ${JSON.stringify(want ?? null)}`);
      }
    }
  }
  // And straight from Postgres: no calendar row the oracle does not know (any date, not only the year read).
  const rows = await sql<{ property_uid: string; n: number }[]>`
    select property_uid, count(*)::int as n from calendar_days where property_uid = any(${sql.array(propertyUids)}) group by property_uid`;
  for (const r of rows) {
    const expected = oracles[propertyUids.indexOf(r.property_uid)]?.days.size ?? 0;
    if (r.n > expected) datesExtra += r.n - expected;
  }
  const [phantom] = await sql<{ n: number }[]>`
    select count(*)::int as n from calendar_requests
     where property_uid = any(${sql.array(propertyUids)}) and not (uid = any(${sql.array(uids)}))`;

  const audit = await readAudit(sql, uids);
  return {
    daysSubmitted,
    daysAccepted,
    daysApplied,
    daysLost,
    statuses,
    requests: uids.length,
    maxAttempts,
    datesWrong,
    datesExtra,
    phantomRequests: phantom?.n ?? 0,
    audit,
    problems,
  };
}
