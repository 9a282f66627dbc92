import type { Sql } from '../../shared/infra/db/client.js';
import type { ProposalsService } from '../../shared/domain/proposals/index.js';
import { rng } from './batches.js';
import type { ApiClient } from './http.js';

/*
 * The proposals half of the fault suite (issue 21): a pricing app proposes calendar days on
 * properties that do not allow calendar control, and a reviewer approves all of a proposal, some
 * of its days, or rejects it, the whole time the rest of the suite kills workers and restarts
 * Redis and Postgres. The review runs here, as the CLI runs it (the service on an offline queue:
 * the workers' re-enqueue sweep queues what an approval made). At the end: every proposal decided,
 * every approved request completed, every rejected or unapproved day never applied, and each date
 * reads the value of the last approval that covered it (approval order: the fresh sequence an
 * approval gives), however the workers raced.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const REVIEWER = 'fault-suite';
const DAYS_PER_PROPOSAL = 8;
const DATE_SPAN = 20;

export interface ProposalRun {
  /** In decision order (reviews run one at a time, so this is also the order approvals committed in). */
  proposals: { uid: string; propertyUid: string; decision: 'approve' | 'some' | 'reject'; outcome: string; days: { date: string; notes: string }[]; approved: string[] }[];
  /** Proposal calls answered with no proposal (never expected: every day is in the future). */
  unstored: number;
  refused: number;
  reviewRetries: number;
}

const day = (from: string, n: number) => new Date(Date.parse(`${from}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Answers a transient failure (Postgres away) as worth trying again. */
const transient = (err: unknown) => {
  const e = err as { status?: number; code?: string | number };
  return !(typeof e.status === 'number' && e.status < 500);
};

export async function streamProposals(
  client: ApiClient,
  sql: Sql,
  review: ProposalsService,
  o: { companyUid: string; propertyUids: readonly string[]; today: string; durationMs: number; everyMs: number; seed: number; runId: string },
): Promise<ProposalRun> {
  const random = rng(o.seed ^ 0x9a0905a1);
  const out: ProposalRun = { proposals: [], unstored: 0, refused: 0, reviewRetries: 0 };
  const end = Date.now() + o.durationMs;
  for (let i = 0; Date.now() < end; i++) {
    const property = o.propertyUids[i % o.propertyUids.length]!;
    const start = 5 + Math.floor(random() * (DATE_SPAN - DAYS_PER_PROPOSAL));
    const days = Array.from({ length: DAYS_PER_PROPOSAL }, (_, k) => ({ date: day(o.today, start + k), price: 100 + Math.floor(random() * 200), currency: 'EUR', notes: `p${i}-${k}` }));
    let requestUids: string[] | undefined;
    for (let tries = 1; Date.now() < end + 90_000; tries++) {
      const a = await client.post('/api/v1/calendar-batch', { property_uid: property, days }, { 'Idempotency-Key': `${o.runId}-p${i}` });
      if (a.status === 200) {
        requestUids = a.body.data.request_uids as string[];
        break;
      }
      if (!((a.status === 503 && a.code === 15) || a.status === 0)) break;
      await sleep(Math.min(250 * tries, 1000));
    }
    if (!requestUids) {
      out.refused++;
      continue;
    }
    const [row] = requestUids.length ? await retrying(() => sql<{ proposal_uid: string | null }[]>`select proposal_uid from calendar_requests where uid = ${requestUids[0]!}`, out) : [];
    if (!row?.proposal_uid) {
      out.unstored++;
      continue;
    }
    const proposal = row.proposal_uid;
    const r = random();
    const decision = r < 0.4 ? 'approve' : r < 0.7 ? 'some' : 'reject';
    const picked = days.filter(() => random() < 0.5).map((d) => d.date);
    const some = picked.length ? picked : [days[0]!.date];
    const outcome = await retrying(async () => {
      try {
        if (decision === 'reject') return (await review.reject(o.companyUid, proposal, REVIEWER)).status;
        return (await review.approve(o.companyUid, proposal, REVIEWER, decision === 'some' ? some : undefined)).status;
      } catch (err) {
        // A decision whose commit went through while its answer was lost: it stands as stored.
        if ((err as { status?: number }).status === 409) return (await sql<{ status: string }[]>`select status from calendar_proposals where uid = ${proposal}`)[0]?.status ?? 'unknown';
        throw err;
      }
    }, out);
    const approved = decision === 'reject' ? [] : decision === 'some' ? some : days.map((d) => d.date);
    out.proposals.push({ uid: proposal, propertyUid: property, decision, outcome, days: days.map(({ date, notes }) => ({ date, notes })), approved });
    await sleep(o.everyMs);
  }
  return out;
}

async function retrying<T>(run: () => Promise<T>, out: ProposalRun): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await run();
    } catch (err) {
      if (!transient(err) || tries > 120) throw err;
      out.reviewRetries++;
      await sleep(500);
    }
  }
}

/** The approved requests, to wait for. */
export async function approvedRequestUids(sql: Sql, run: ProposalRun): Promise<string[]> {
  const rows = await sql<{ uid: string }[]>`
    select uid from calendar_requests where proposal_uid = any(${sql.array(run.proposals.map((p) => p.uid))}) and status <> 'disabled'`;
  return rows.map((r) => r.uid);
}

export interface ProposalVerdict {
  proposals: number;
  byOutcome: Record<string, number>;
  /** Requests of a proposal not final (completed or disabled) at the end. */
  notFinal: number;
  /** Requests of an approval that ended error. */
  errors: number;
  /** Dates an approval covered (each checked against the last approval's value). */
  datesChecked: number;
  /** Dates whose stored value is not the last approval's. */
  datesWrong: string[];
  /** Dates holding a value of a day that was rejected or not approved. */
  rejectedApplied: string[];
}

export async function verifyProposals(sql: Sql, run: ProposalRun): Promise<ProposalVerdict> {
  const uids = run.proposals.map((p) => p.uid);
  const requests = await sql<{ status: string; n: number }[]>`
    select status, count(*)::int as n from calendar_requests where proposal_uid = any(${sql.array(uids)}) group by status`;
  const count = (s: string) => requests.find((r) => r.status === s)?.n ?? 0;
  const notFinal = requests.filter((r) => r.status !== 'completed' && r.status !== 'disabled' && r.status !== 'error').reduce((n, r) => n + r.n, 0);
  // The oracle, from what was proposed and decided (applied requests keep no days): each date reads
  // the note of the last approval that covered it; a note of a day not approved must read nowhere.
  const expected = new Map<string, string>();
  const notApproved = new Set<string>();
  for (const p of run.proposals) {
    const approved = new Set(p.approved);
    for (const d of p.days) {
      if (approved.has(d.date)) expected.set(`${p.propertyUid} ${d.date}`, d.notes);
      else notApproved.add(d.notes);
    }
  }
  const props = [...new Set(run.proposals.map((p) => p.propertyUid))];
  const stored = await sql<{ property_uid: string; date: string; notes: string | null }[]>`
    select property_uid, date::text, notes from calendar_days where property_uid = any(${sql.array(props)})`;
  const got = new Map(stored.map((r) => [`${r.property_uid} ${r.date}`, r.notes]));
  const datesWrong = [...expected].filter(([k, notes]) => got.get(k) !== notes).map(([k, notes]) => `${k} ${got.get(k) ?? '-'} (want ${notes})`);
  const rejectedApplied = stored.filter((r) => r.notes !== null && notApproved.has(r.notes)).map((r) => `${r.property_uid} ${r.date} ${r.notes}`);
  const byOutcome: Record<string, number> = {};
  for (const p of run.proposals) byOutcome[p.outcome] = (byOutcome[p.outcome] ?? 0) + 1;
  return { proposals: uids.length, byOutcome, notFinal, errors: count('error'), datesChecked: expected.size, datesWrong, rejectedApplied };
}

const row = (k: string, v: string | number) => `  ${k.padEnd(46)} ${String(v)}`;

export function renderProposalReport(v: ProposalVerdict, run: ProposalRun): string {
  return [
    row('proposals: made / decided as', `${v.proposals} / ${Object.entries(v.byOutcome).map(([k, n]) => `${k} ${n}`).join(', ')}`),
    row('proposals: requests not final / error', `${v.notFinal} / ${v.errors}`),
    row('proposals: dates checked / wrong / rejected days applied', `${v.datesChecked} / ${v.datesWrong.length} / ${v.rejectedApplied.length}`),
    row('proposals: reviews retried (Postgres away)', run.reviewRetries),
    '-'.repeat(64),
  ].join('\n');
}
