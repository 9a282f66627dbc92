import http from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

/**
 * Closed-loop load: `connections` keep-alive sockets each sending the next request as soon as the
 * last answer arrived, for `seconds`. Bounded in time; stops by itself.
 */
export async function closedLoop(
  url: string,
  body: (i: number) => string,
  opts: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const u = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  const end = Date.now() + opts.seconds * 1000;
  const one = (payload: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: u.hostname, port: u.port, path: u.pathname + u.search, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...opts.headers } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: opts.connections }, async () => {
      while (Date.now() < end) {
        const payload = body(n++);
        const t0 = performance.now();
        const status = await one(payload).catch(() => 0);
        latencies.push(performance.now() - t0);
        if (status !== 200) errors++;
      }
    }),
  );
  agent.destroy();
  const seconds = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, seconds, rps: latencies.length / seconds, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99) };
}
