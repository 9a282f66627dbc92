import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isRefusedAddress, RefusedTargetError } from './ssrf-guard.js';

export type PostOutcome = { ok: true; statusCode: number } | { ok: false; statusCode: number | null; error: string | null };

export interface PostOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  /** The runtime's kept connections to reuse; without them every POST opens (and closes) its own. */
  connections?: KeptConnections;
}

/** The most of an answer's body read (and discarded) to keep its connection; more closes it. */
export const ANSWER_BODY_CAP = 16 * 1024;
/** How long after its status line an answer's body may take to end before its connection is closed. */
export const ANSWER_BODY_WAIT_MS = 500;
/** An idle kept connection is closed after this (under the 5 s most servers keep one open). */
const IDLE_CLOSE_MS = 4000;

/*
 * Kept connections (issue 37: a new TCP connection per POST, opened and closed, was the largest
 * part of a delivery's CPU). One keep-alive agent per protocol and per guard setting, each keeping
 * a pool per target (host and port): the guarded agents connect through the SSRF guard's lookup,
 * so every NEW connection's address is checked where it is connected to, and a kept connection was
 * checked when it was opened. Separate agents for the unguarded setting, so a connection opened
 * while private targets were allowed is never handed to a guarded POST. A connection goes back to
 * its pool only after a 2xx whose body ended within ANSWER_BODY_CAP bytes and ANSWER_BODY_WAIT_MS;
 * any other answer, an error or a time-out closes it.
 */
const agentOptions = { keepAlive: true, timeout: IDLE_CLOSE_MS, maxFreeSockets: 16, scheduling: 'lifo' as const };

/** One runtime's kept connections (shared/app/runtime.ts makes one and destroys it at close). */
export class KeptConnections {
  private readonly guarded = { http: new HttpAgent({ ...agentOptions, lookup: guardedLookup }), https: new HttpsAgent({ ...agentOptions, lookup: guardedLookup }) };
  private readonly open = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };

  agentFor(https: boolean, allowPrivate: boolean): HttpAgent {
    const pool = allowPrivate ? this.open : this.guarded;
    return https ? pool.https : pool.http;
  }

  /** Closes every kept connection. */
  destroy(): void {
    for (const pool of [this.guarded, this.open]) {
      pool.http.destroy();
      pool.https.destroy();
    }
  }
}

/**
 * One delivery attempt: POST the body, 2xx within `timeoutMs` is success. Anything else is a
 * failure, with the status code when an answer came and the error otherwise. Redirects are not
 * followed (a 3xx is a failure: following one would let a public host bounce us to a private one).
 * The timer covers connect, headers and all, and destroys the socket when it fires, so a receiver
 * that hangs holds a worker slot for `timeoutMs` at most. The outcome is settled by the status
 * line; the answer's body is never used, only read off (capped, briefly) so that the connection
 * can carry the next POST (issue 24: a receiver trickling its body forever held every socket it
 * was given: such a connection is closed, not kept). A POST whose kept connection turns out closed
 * by the receiver before any answer is sent once more on a new connection.
 */
export async function postWebhook(url: string, body: string, headers: Record<string, string>, opts: PostOptions): Promise<PostOutcome> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, statusCode: null, error: 'invalid URL' };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return { ok: false, statusCode: null, error: `unsupported protocol ${target.protocol}` };
  const host = target.hostname.replace(/^\[|\]$/g, '');
  // A literal address never goes through `lookup`, so it is judged here.
  if (!opts.allowPrivateTargets && isIP(host) !== 0 && isRefusedAddress(host)) {
    return { ok: false, statusCode: null, error: new RefusedTargetError(`target ${host} is a loopback, private or link-local address`).message };
  }
  const started = Date.now();
  const first = await postOnce(target, body, headers, opts.timeoutMs, opts);
  if (!('staleConnection' in first)) return first;
  return stripStale(await postOnce(target, body, headers, opts.timeoutMs - (Date.now() - started), opts, true));
}

type Attempt = PostOutcome | { staleConnection: true; outcome: PostOutcome };
const stripStale = (a: Attempt): PostOutcome => ('staleConnection' in a ? a.outcome : a);

function postOnce(target: URL, body: string, headers: Record<string, string>, timeoutMs: number, opts: PostOptions, fresh = false): Promise<Attempt> {
  return new Promise((resolve) => {
    const https = target.protocol === 'https:';
    const allowPrivate = opts.allowPrivateTargets;
    // The retry after a stale kept connection, or a POST without kept connections, takes a new
    // one: agent false, the guard's own lookup.
    const agent = fresh ? undefined : opts.connections?.agentFor(https, allowPrivate);
    let settled = false;
    let answered = false;
    const settle = (outcome: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const options = {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)), 'User-Agent': 'property-ops-webhooks/1' },
      ...(agent ? { agent } : { agent: false as const, ...(allowPrivate ? {} : { lookup: guardedLookup }) }),
    };
    const req: ClientRequest = (https ? httpsRequest : httpRequest)(target, options, (res) => {
      answered = true;
      const statusCode = res.statusCode ?? 0;
      const ok = statusCode >= 200 && statusCode < 300;
      settle(ok ? { ok: true, statusCode } : { ok: false, statusCode, error: null });
      discardAnswer(req, res, ok);
    });
    const timer = setTimeout(
      () => {
        settle({ ok: false, statusCode: null, error: `no answer within ${timeoutMs} ms` });
        req.destroy();
      },
      Math.max(1, timeoutMs),
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      const outcome: PostOutcome = { ok: false, statusCode: null, error: (err.message || err.code || 'request failed').slice(0, 500) };
      // A kept connection the receiver closed while it was idle (the race every keep-alive client
      // has): nothing was answered on it, so the POST is made again on a new connection.
      const stale = !fresh && !answered && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
      settle(stale ? { staleConnection: true, outcome } : outcome);
    });
    req.end(body);
  });
}

/**
 * Reads the answer's body off and drops it. Only after a 2xx whose body ends within the cap and
 * the wait is the connection left to the agent to keep; otherwise it is closed at once.
 */
function discardAnswer(req: ClientRequest, res: IncomingMessage, keep: boolean): void {
  res.on('error', () => {});
  if (!keep) {
    req.destroy();
    return;
  }
  let bytes = 0;
  const close = () => {
    clearTimeout(wait);
    req.destroy();
  };
  const wait = setTimeout(close, ANSWER_BODY_WAIT_MS);
  res.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > ANSWER_BODY_CAP) close();
  });
  res.on('end', () => clearTimeout(wait));
  res.on('close', () => clearTimeout(wait));
}
