import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Sql } from '../../shared/infra/db/client.js';

/*
 * "Mid-job" made precise: a worker process is mid-job when one of its own Postgres connections is
 * inside a transaction that touches calendar requests (the apply transaction). Its connections are
 * found through /proc: the process's socket inodes, matched to the TCP table's local ports, matched
 * to pg_stat_activity.client_port.
 */

function socketInodes(pid: number): Set<string> {
  const out = new Set<string>();
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return out;
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m?.[1]) out.add(m[1]);
    } catch {
      /* fd closed meanwhile */
    }
  }
  return out;
}

/** Local ports of the process's TCP connections to `remotePort`. */
export function localPortsTo(pid: number, remotePort: number): number[] {
  const inodes = socketInodes(pid);
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const local = cols[1];
      const remote = cols[2];
      const inode = cols[9];
      if (!local || !remote || !inode || !inodes.has(inode)) continue;
      if (parseInt(remote.split(':')[1] ?? '', 16) !== remotePort) continue;
      ports.push(parseInt(local.split(':')[1] ?? '', 16));
    }
  }
  return ports;
}

/** How many apply transactions the process has open in Postgres right now (0 if Postgres is unreachable). */
export async function applyTransactionsOf(sql: Sql, pid: number, pgPort: number): Promise<number> {
  const ports = localPortsTo(pid, pgPort);
  if (ports.length === 0) return 0;
  const rows = await sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
     where client_port = any(${sql.array(ports)}::int[])
       and xact_start is not null
       and query ilike '%calendar%'`.catch(() => [{ n: 0 }]);
  return rows[0]?.n ?? 0;
}
