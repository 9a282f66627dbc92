import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isRefusedAddress, RefusedTargetError } from './ssrf-guard.js';

export type PostOutcome = { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string | null };

export interface PostOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
}

/**
 * One delivery attempt: POST the body, 2xx within `timeoutMs` is success. Anything else is a
 * failure, with the status code when an answer came and the error otherwise. Redirects are not
 * followed (a 3xx is a failure: following one would let a public host bounce us to a private one).
 * The timer covers connect, headers and all, and destroys the socket when it fires, so a receiver
 * that hangs holds a worker slot for `timeoutMs` at most; once the status line is in, the socket is
 * closed without reading the body.
 */
export function postWebhook(url: string, body: string, headers: Record<string, string>, opts: PostOptions): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ ok: false, statusCode: null, error: 'invalid URL' });
      return;
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      resolve({ ok: false, statusCode: null, error: `unsupported protocol ${target.protocol}` });
      return;
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // A literal address never goes through `lookup`, so it is judged here.
    if (!opts.allowPrivateTargets && isIP(host) !== 0 && isRefusedAddress(host)) {
      resolve({ ok: false, statusCode: null, error: new RefusedTargetError(`target ${host} is a loopback, private or link-local address`).message });
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const settle = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)), 'User-Agent': 'property-ops-webhooks/1' },
        ...(opts.allowPrivateTargets ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        const statusCode = res.statusCode ?? 0;
        settle(statusCode >= 200 && statusCode < 300 ? { ok: true, statusCode } : { ok: false, statusCode, error: null });
        // The answer's body is never used: the status line is the outcome, and the socket is closed
        // at once (issue 24: a receiver trickling its body forever held every socket it was given).
        res.on('error', () => {});
        req.destroy();
      },
    );
    const timer = setTimeout(() => {
      settle({ ok: false, statusCode: null, error: `no answer within ${opts.timeoutMs} ms` });
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => settle({ ok: false, statusCode: null, error: (err.message || err.code || 'request failed').slice(0, 500) }));
    req.end(body);
  });
}
