import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface RunningPostgres {
  pid: number;
  pidFile: string;
}

/**
 * The Postgres running on the embedded data folder under `dataDir`, if any. Postgres writes
 * `postmaster.pid` (first line: its pid) while it runs and removes it when it stops; a file left by
 * a crash names a pid that no longer exists. One data folder takes one Postgres, so a second
 * process (the CLI beside `npm start`) must not try to boot another one on it.
 */
export function runningEmbeddedPostgres(dataDir: string): RunningPostgres | undefined {
  const pidFile = path.resolve(dataDir, 'pg', 'postmaster.pid');
  let text: string;
  try {
    text = readFileSync(pidFile, 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // ESRCH: no such process, a stale file. EPERM: it exists but is not ours, so it is running.
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return undefined;
  }
  return { pid, pidFile };
}
