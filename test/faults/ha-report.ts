/*
 * The HA scenario's report (npm run ha): per kind of switch, what was accepted against what is
 * there, and how long clients waited from the fault to the first 200 sent after it.
 */

export interface Counts {
  accepted: number;
  present: number;
  lost: number;
  /** Applied twice with a different result, stored twice, or stored without a 200 naming it. */
  duplicates: number;
}

export interface RunResult {
  kind: 'failover' | 'switchover';
  n: number;
  /** From the fault to the first 200 answered to a request sent after it. */
  recoveryMs: number | undefined;
  /** From the fault to the cluster having its new primary (the monitor's view). */
  switchMs: number;
  /** From the first 503 after the fault to the first 200 sent after it (0: no 503 at all). */
  refusedMs: number | undefined;
  days: Counts;
  messages: Counts;
  bookings: Counts;
  events: Counts;
  /** Extra SMTP copies of an accepted message (same Message-ID): at-least-once delivery. */
  smtpExtraCopies: number;
  /** Answers to requests in flight or sent during the switch, by status. */
  statuses: Record<string, number>;
  /** Answers neither 200 nor 503 code 15 with Retry-After (no answer at all included). */
  unexpected: string[];
  waiter: { status: number; code: number | undefined; latencyMs: number; changes: number; answered: boolean };
  settled: boolean;
  refused: number;
  notes: string[];
}

const KINDS = ['days', 'messages', 'bookings', 'events'] as const;
const LABEL = { days: 'calendar days', messages: 'guest messages', bookings: 'bookings', events: 'webhook events' };

function stats(xs: number[]): string {
  if (xs.length === 0) return '-';
  const s = [...xs].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  return `min ${(s[0]! / 1000).toFixed(1)} s, median ${(median / 1000).toFixed(1)} s, max ${(s[s.length - 1]! / 1000).toFixed(1)} s (${s.length} runs)`;
}

export function renderHaReport(results: RunResult[]): { text: string; failures: string[] } {
  const lines: string[] = [];
  const failures: string[] = [];
  for (const kind of ['failover', 'switchover'] as const) {
    const rs = results.filter((r) => r.kind === kind);
    if (rs.length === 0) continue;
    lines.push(`${kind} (${rs.length} runs):`);
    for (const k of KINDS) {
      const sum = (f: keyof Counts) => rs.reduce((n, r) => n + r[k][f], 0);
      lines.push(`  ${LABEL[k].padEnd(15)} accepted ${sum('accepted')}, present ${sum('present')}, lost ${sum('lost')}, duplicates ${sum('duplicates')}`);
    }
    lines.push(`  extra SMTP copies of a message (same Message-ID, at-least-once): ${rs.reduce((n, r) => n + r.smtpExtraCopies, 0)}`);
    const statuses: Record<string, number> = {};
    for (const r of rs) for (const [s, c] of Object.entries(r.statuses)) statuses[s] = (statuses[s] ?? 0) + c;
    lines.push(`  answers during the switch: ${Object.entries(statuses).map(([s, c]) => `${s}: ${c}`).join(', ')}`);
    lines.push(`  long-poll waiters across the switch: ${rs.map((r) => `${r.waiter.status}${r.waiter.code ? ` code ${r.waiter.code}` : ''} with ${r.waiter.changes} change(s) in ${(r.waiter.latencyMs / 1000).toFixed(1)} s`).join('; ')}`);
    lines.push(`  fault -> first 200 after it: ${stats(rs.flatMap((r) => (r.recoveryMs === undefined ? [] : [r.recoveryMs])))}`);
    lines.push(`  first 503 -> first 200 after it (clients refused): ${stats(rs.flatMap((r) => (r.refusedMs === undefined ? [] : [r.refusedMs])))}`);
    lines.push(`  fault -> new primary (monitor): ${stats(rs.map((r) => r.switchMs))}`);
    for (const r of rs) {
      const at = `${kind} ${r.n}`;
      for (const k of KINDS) {
        if (r[k].lost > 0) failures.push(`${at}: ${r[k].lost} ${LABEL[k]} lost`);
        if (r[k].duplicates > 0) failures.push(`${at}: ${r[k].duplicates} ${LABEL[k]} applied twice or never answered 200`);
        if (r[k].accepted === 0) failures.push(`${at}: no ${LABEL[k]} accepted`);
      }
      if (r.unexpected.length > 0) failures.push(`${at}: ${r.unexpected.length} answers neither 200 nor 503 code 15 with Retry-After: ${r.unexpected.slice(0, 3).join('; ')}`);
      if (!r.waiter.answered) failures.push(`${at}: the long-poll waiter got ${r.waiter.status} with ${r.waiter.changes} changes after ${r.waiter.latencyMs} ms (the change made after the switch not seen)`);
      if (r.recoveryMs === undefined) failures.push(`${at}: no 200 within 30 s of the fault`);
      if (!r.settled) failures.push(`${at}: not everything final within the settle time`);
      if (r.refused > 0) failures.push(`${at}: ${r.refused} requests never accepted`);
      for (const note of r.notes) lines.push(`  ! ${at}: ${note}`);
    }
  }
  return { text: lines.join('\n'), failures };
}
