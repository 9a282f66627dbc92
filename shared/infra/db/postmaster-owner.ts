import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Logger } from '../logger.js';

/*
 * Who holds the embedded Postgres of a data folder. postmaster.ts runs the server in a process group
 * of its own (so Ctrl-C does not cut it before the API is done), which also means a `kill -9` of
 * `npm start` leaves it running, holding `postmaster.pid`: the next start then failed with
 * "postmaster.pid already exists". The process that boots it records itself beside the data
 * (`<databaseDir>.owner`); a server whose parent is no longer that process was orphaned by a crash
 * and may be stopped; one whose owner still runs is in use and must be left alone.
 */

export interface RunningPostmaster {
  pid: number;
  pidFile: string;
  /** The process that started it, when it recorded itself and is still its parent. */
  ownerPid: number | undefined;
  orphaned: boolean;
}

/** A second process (npm start, the CLI) finds the data folder held by a live service. */
export class EmbeddedInUseError extends Error {}

const ownerFile = (databaseDir: string) => `${databaseDir}.owner`;
const pidFileOf = (databaseDir: string) => `${databaseDir}/postmaster.pid`;

/** Running: exists and is not a zombie (an init that does not reap, as in some containers, keeps those). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but runs as another user (the `postgres` user when we run as root).
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return true; // no /proc (macOS): kill(0) is all there is
  }
}

/** The parent pid of a process: /proc on Linux, `ps` elsewhere; undefined once it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    try {
      return Number(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).trim()) || undefined;
    } catch {
      return undefined;
    }
  }
}

function readOwner(databaseDir: string): { owner: number; postmaster: number } | undefined {
  try {
    const parsed = JSON.parse(readFileSync(ownerFile(databaseDir), 'utf8')) as { owner?: unknown; postmaster?: unknown };
    return typeof parsed.owner === 'number' && typeof parsed.postmaster === 'number' ? { owner: parsed.owner, postmaster: parsed.postmaster } : undefined;
  } catch {
    return undefined;
  }
}

export function recordOwner(databaseDir: string, postmasterPid: number): void {
  writeFileSync(ownerFile(databaseDir), JSON.stringify({ owner: process.pid, postmaster: postmasterPid }), { mode: 0o600 });
}

export function forgetOwner(databaseDir: string): void {
  rmSync(ownerFile(databaseDir), { force: true });
}

/**
 * The Postgres running on `databaseDir`, if any. Postgres writes `postmaster.pid` (first line: its
 * pid) while it runs and removes it when it stops; a file left by a crash names a pid that no
 * longer exists, which Postgres itself clears on its next start.
 */
export function inspectPostmaster(databaseDir: string): RunningPostmaster | undefined {
  const pidFile = pidFileOf(databaseDir);
  let text: string;
  try {
    text = readFileSync(pidFile, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined;
  const parent = parentOf(pid);
  const owner = readOwner(databaseDir);
  // Recorded owner: orphaned once the server's parent is no longer that process (a dead owner's
  // child is re-parented to init or a subreaper). No record (an older version started it):
  // orphaned when re-parented to init.
  const ownerPid = owner?.postmaster === pid && parent === owner.owner && isAlive(owner.owner) ? owner.owner : undefined;
  const orphaned = owner?.postmaster === pid ? ownerPid === undefined : parent === 1;
  return { pid, pidFile, ownerPid, orphaned };
}

/** Fast shutdown (SIGINT: clean, no recovery needed) of an orphaned server, waiting for it to exit. */
export async function stopOrphan(found: RunningPostmaster, log: Logger, timeoutMs = 30_000): Promise<void> {
  log.warn({ postgresPid: found.pid }, 'stopping an embedded Postgres left running by a previous start that did not stop it');
  process.kill(found.pid, 'SIGINT');
  const deadline = Date.now() + timeoutMs;
  while (isAlive(found.pid)) {
    if (Date.now() > deadline) throw new Error(`the orphaned embedded Postgres (pid ${found.pid}) did not stop within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What a person reads when the data folder is held by a live service. */
export function inUseMessage(dataDir: string, found: RunningPostmaster): string {
  const by = found.ownerPid ? `started by process ${found.ownerPid}, most likely npm start` : 'most likely npm start';
  return (
    `the embedded database in ${dataDir} is in use by a running Postgres (pid ${found.pid}, ${by}).\n` +
    `Stop that server first (Ctrl-C), or set DATABASE_URL to use another database.`
  );
}
