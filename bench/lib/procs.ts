import { spawn, type ChildProcess } from 'node:child_process';

export { freePort } from '../../shared/infra/net.js';

export interface Proc {
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `node --import tsx <script>` and resolves once `ready(line)` matches a line of its stdout. */
export async function startProc(script: string, env: Record<string, string>, ready: RegExp, timeoutMs = 60_000, nodeArgs: string[] = []): Promise<Proc> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} not ready in ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    let buf = '';
    child.stdout?.on('data', (c: Buffer) => {
      buf = (buf + c.toString()).slice(-10_000);
      if (ready.test(buf)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited ${code}: ${stderr}`));
    });
  });
  child.removeAllListeners('exit');
  // Once ready, its output is only drained. Kept and scanned, every log line of a server that logs
  // per request (the full API) was appended to a string and searched again, load-generator CPU on
  // the cores the servers share that fell on that server alone.
  child.stdout?.removeAllListeners('data');
  child.stdout?.resume();
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
      }),
  };
}
