import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/* What the fault suite (run.ts) and the HA scenario (ha.ts) share to run and read a scenario. */

export const log = (m: string) => process.stdout.write(`${m}\n`);

/** The pino lines with message `msg` in the matching log files: how many, the sum of their `count`, the highest `attempt`. */
export function countLogged(dir: string, file: RegExp, msg: string): { lines: number; count: number; maxAttempt: number } {
  const out = { lines: 0, count: 0, maxAttempt: 0 };
  for (const f of readdirSync(dir).filter((x) => file.test(x))) {
    for (const line of readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      if (!line.includes(`"msg":"${msg}"`)) continue;
      out.lines++;
      try {
        const entry = JSON.parse(line) as { count?: number; attempt?: number };
        out.count += Number(entry.count ?? 0);
        out.maxAttempt = Math.max(out.maxAttempt, Number(entry.attempt ?? 0));
      } catch {
        /* not a log line */
      }
    }
  }
  return out;
}

/**
 * Runs a scenario as a command: exits 0 when it answers true, 1 when it answers false or throws
 * (the stack printed), and 1 from a watchdog when it has not finished within `timeoutMs`.
 */
export function runScenario(main: () => Promise<boolean>, timeoutMs: number, what: string): void {
  const watchdog = setTimeout(() => {
    log(`FAILED: ${what} did not finish within ${timeoutMs} ms`);
    process.exit(1);
  }, timeoutMs);
  watchdog.unref();
  main().then(
    (ok) => process.exit(ok ? 0 : 1),
    (err: unknown) => {
      log(`FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      process.exit(1);
    },
  );
}
