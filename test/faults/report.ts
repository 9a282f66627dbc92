import type { FaultEvent } from './faults.js';
import type { Answer } from './http.js';
import type { Verdict } from './verify.js';

/** The printed summary: one table of what was submitted, accepted, applied and lost, and the faults. */

export interface ReportInput {
  verdict: Verdict;
  faults: FaultEvent[];
  answers: Answer[];
  outageProbes: Answer[];
  retried: number;
  /** Requests the workers' re-enqueuer put back in the queue (from their logs). */
  reenqueued: number;
  /** Job attempts that failed and were retried (from the workers' logs). */
  retriedJobs: number;
  /** The highest attempt number among them, and the JOB_ATTEMPTS the workers ran with. */
  maxJobAttempt: number;
  jobAttempts: number;
  drainMs: number;
  streamMs: number;
  totalMs: number;
}

const row = (k: string, v: string | number) => `  ${k.padEnd(46)} ${String(v)}`;

export function renderReport(r: ReportInput): string {
  const v = r.verdict;
  const out: string[] = ['', 'Fault suite', '-'.repeat(64)];
  out.push(row('days submitted (entries in batch bodies)', v.daysSubmitted));
  out.push(row('days accepted (kept after warnings/merges)', v.daysAccepted));
  out.push(row('days applied (sum of days_applied)', v.daysApplied));
  out.push(row('days LOST', v.daysLost));
  out.push(row('calendar dates wrong / extra', `${v.datesWrong} / ${v.datesExtra}`));
  out.push(row('requests accepted', v.requests));
  for (const [status, n] of Object.entries(v.statuses).sort()) out.push(row(`  requests ${status}`, n));
  out.push(row('request `attempts` (apply starts), highest', v.maxAttempts));
  out.push(row('phantom requests (stored, never answered 200)', v.phantomRequests));
  out.push(
    row(
      'completed twice / left final / finished rewritten',
      `${v.audit.completedTwice.length} / ${v.audit.leftFinal.length} / ${v.audit.finishedRewritten.length} (${v.audit.transitions} status moves audited)`,
    ),
  );
  out.push('-'.repeat(64));
  const kinds = new Map<string, number>();
  for (const f of r.faults) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1);
  for (const [kind, n] of kinds) out.push(row(`fault: ${kind}`, n));
  // Sent and answered while Postgres was down (answers across a phase change are left out).
  const outage = r.answers.filter((a) => a.phase.includes('postgres-down') && !a.phase.includes('->'));
  const outage503 = outage.filter((a) => a.status === 503 && a.code === 15).length;
  out.push(row('answers during Postgres outages (503 code 15)', `${outage.length} (${outage503}), slowest ${Math.max(0, ...outage.map((a) => a.latencyMs))} ms`));
  out.push(row('  of which probes (503 code 15)', `${r.outageProbes.length} (${r.outageProbes.filter((a) => a.status === 503 && a.code === 15).length})`));
  const redisDown = r.answers.filter((a) => a.phase.includes('redis-down'));
  out.push(row('answers during Redis outage / slowest', `${redisDown.length} / ${Math.max(0, ...redisDown.map((a) => a.latencyMs))} ms`));
  const byStatus = new Map<string, number>();
  for (const a of r.answers) byStatus.set(`${a.status}${a.code !== undefined ? `/${a.code}` : ''}`, (byStatus.get(`${a.status}${a.code !== undefined ? `/${a.code}` : ''}`) ?? 0) + 1);
  out.push(row('all answers by status/code', [...byStatus].map(([k, n]) => `${k}: ${n}`).join(', ')));
  out.push(row('batches re-sent after 503 / no answer', r.retried));
  out.push(row('requests re-added to the queue by the re-enqueuer', r.reenqueued));
  out.push(row('job attempts failed and retried / highest attempt', `${r.retriedJobs} / ${r.maxJobAttempt} of ${r.jobAttempts}`));
  out.push(row('stream / drain after stream+faults / total', `${(r.streamMs / 1000).toFixed(1)} s / ${(r.drainMs / 1000).toFixed(1)} s / ${(r.totalMs / 1000).toFixed(1)} s`));
  out.push('-'.repeat(64));
  return out.join('\n');
}
