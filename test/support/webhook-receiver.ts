import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  /** The body exactly as it came over the wire. */
  rawBody: string;
  answered: number | 'hung';
}

/** What the receiver does with one delivery: answer this status, or never answer. */
export type Behaviour = (n: number, rawBody: string) => number | 'hang';

export interface WebhookReceiver {
  url: string;
  port: number;
  received: Received[];
  close(): Promise<void>;
}

/** A local HTTP receiver that records every delivery (headers and raw body) and answers as told. */
export async function startWebhookReceiver(behave: Behaviour = () => 200, port = 0): Promise<WebhookReceiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const answer = behave(received.length, rawBody);
      received.push({ headers: req.headers, rawBody, answered: answer === 'hang' ? 'hung' : answer });
      if (answer === 'hang') return;
      res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/hooks/calendar`,
    port: actual,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * The receiver's check, written from docs/api.md alone (not with the service's own code): HMAC-SHA256
 * with the secret over "<t>.<raw body>", hex, compared with v1 of X-Webhook-Signature.
 */
export function signatureValid(secret: string, header: string | string[] | undefined, rawBody: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(header ?? ''));
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(`${m[1]}.${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(m[2]!, 'hex'));
}
