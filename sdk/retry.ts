/*
 * Retries of 429 (rate limited, code 16) and 503 (unavailable, code 15, e.g. during a database
 * failover), as the API asks: after `Retry-After` (seconds or an HTTP date) when the answer has it,
 * else after an exponential backoff with jitter. Each attempt sends a fresh copy of the request,
 * so a body is sent whole every time. The API refuses a rate-limited request before reading it,
 * and a 503 stores nothing that answered; a write that must never be applied twice carries an
 * Idempotency-Key (submitAndWait does), which makes its retry a replay.
 */

export interface RetryOptions {
  /** Attempts after the first; default 3. */
  retries?: number;
  /** Longest wait before an attempt; a Retry-After asking for more is answered with the 429/503 itself. Default 60 s. */
  maxDelayMs?: number;
  /** First backoff when the answer has no Retry-After, doubled per attempt; default 500 ms. */
  baseDelayMs?: number;
}

const RETRIED = new Set([429, 503]);

/** Milliseconds a Retry-After asks for, or undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A fetch that retries 429 and 503 answers (openapi-fetch's `fetch` option). */
export function retryingFetch(send: (request: Request) => Promise<Response>, options: RetryOptions = {}): (request: Request) => Promise<Response> {
  const retries = options.retries ?? 3;
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const baseDelayMs = options.baseDelayMs ?? 500;
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      // The original is kept unsent, so that every attempt can have a copy of its body.
      const response = await send(attempt < retries ? request.clone() : request);
      if (!RETRIED.has(response.status) || attempt >= retries) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      const delay = asked ?? Math.random() * baseDelayMs * 2 ** attempt;
      if (delay > maxDelayMs) return response;
      // The answer is dropped, its connection released, before the wait.
      await response.body?.cancel();
      await sleep(delay, request.signal);
    }
  };
}
