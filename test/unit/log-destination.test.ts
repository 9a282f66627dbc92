import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * The buffered stdout log (stdoutLog, issue 37): lines logged right before the process exits are
 * written, not lost in the buffer. A child logs N lines in one tick and exits at once. A line of a
 * process that logs nothing more is written within LOG_FLUSH_MS, not held until the buffer fills.
 */
const logger = fileURLToPath(new URL('../../shared/infra/logger.ts', import.meta.url));

function runChild(sync: boolean, lines: number, exit: string, onLine?: () => void): Promise<string> {
  const code = `
    const { createLogger, stdoutLog } = await import(${JSON.stringify(logger)});
    const log = createLogger('info', { proc: 't' }, stdoutLog(${sync}));
    for (let i = 0; i < ${lines}; i++) log.info({ i, pad: 'x'.repeat(200) }, 'line');
    ${exit}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    if (out.includes('"msg":"line"')) onLine?.();
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => resolve(out));
  });
}

const counted = (out: string) => out.split('\n').filter((l) => l.includes('"msg":"line"')).length;

describe('stdout log destination', () => {
  it('buffered: every line logged before process.exit() is written', async () => {
    expect(counted(await runChild(false, 20_000, 'process.exit(0);'))).toBe(20_000);
  }, 60_000);

  it('buffered: every line logged before a SIGTERM ends the process is written', async () => {
    expect(counted(await runChild(false, 20_000, "process.on('SIGTERM', () => process.exit(0)); process.kill(process.pid, 'SIGTERM');"))).toBe(20_000);
  }, 60_000);

  it('buffered: a lone line is written while the process runs on, not at its exit', async () => {
    let seenAt: number | undefined;
    await runChild(false, 1, 'setTimeout(() => process.exit(0), 4000);', () => (seenAt ??= Date.now()));
    const exitedAt = Date.now();
    expect(seenAt, 'the line was written').toBeDefined();
    // Within the flush period (100 ms) of the log call: seconds before the exit 4 s later.
    expect(exitedAt - (seenAt as number)).toBeGreaterThan(2000);
  }, 60_000);

  it('sync: every line is written', async () => {
    expect(counted(await runChild(true, 2_000, 'process.exit(0);'))).toBe(2_000);
  }, 60_000);
});
