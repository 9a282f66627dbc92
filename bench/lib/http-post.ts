import http from 'node:http';

/*
 * The bench's own HTTP client for its floods: node:http on keep-alive sockets. It shares the 2
 * cores with the servers it measures, so it is the cheapest client at hand: fetch (undici, and the
 * SDK on it) cost the messages bench's process twice the CPU a message (1.62-1.66 ms against
 * 0.73-0.83, its SMTP server's share included).
 */

export interface Posted {
  status: number;
  body: string;
}

/**
 * A client of `sockets` keep-alive connections, each request with `headers` (a token's
 * Authorization): post(url, json) answers the status and the body read whole.
 */
export function httpPoster(sockets: number, headers: Record<string, string> = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const post = (url: URL, payload: string): Promise<Posted> =>
    new Promise((resolve, reject) => {
      const all = { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
      const req = http.request(url, { method: 'POST', agent, headers: all }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  return { post, close: () => agent.destroy() };
}
