import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../shared/app/context.js';
import { startMessagePump } from '../../worker/message-pump.js';

/** A worker's context as far as the pump reads it, over a database whose claims fail `failures` times. */
function fakeContext(failures: number, opts: { claim?: () => unknown[]; sendClaimed?: () => Promise<unknown> } = {}) {
  const logs: Array<[string, string]> = [];
  const timed: string[] = [];
  const handedOver: string[] = [];
  let claims = 0;
  const log = (level: string) => (a: unknown, b?: unknown) => logs.push([level, typeof a === 'string' ? a : String(b)]);
  const ctx = {
    config: { messaging: { concurrency: 4, pollMs: 10, backoff: { delayMs: 10, maxMs: 10 } } },
    services: {
      messaging: {
        claimUnsent: async () => {
          claims++;
          if (claims <= failures) throw new Error('connection refused');
          return claims === failures + 1 && opts.claim ? opts.claim() : [];
        },
        sendClaimed: opts.sendClaimed,
        handOver: async (uid: string) => {
          handedOver.push(uid);
        },
      },
    },
    jobs: { messages: { isPaused: async () => false } },
    database: { sql: { listen: async () => ({ unlisten: async () => {} }) } },
    logger: { warn: log('warn'), info: log('info'), debug: log('debug') },
    metrics: { jobDuration: { startTimer: () => (labels: { outcome: string }) => timed.push(labels.outcome) } },
  } as unknown as AppContext;
  return { ctx, logs, timed, handedOver, claims: () => claims };
}

describe('the message pump', () => {
  it('says once that it cannot claim while Postgres is away, and once that it claims again', async () => {
    const f = fakeContext(5);
    const pump = startMessagePump(f.ctx);
    await expect.poll(f.claims, { timeout: 5000 }).toBeGreaterThan(7);
    await pump.stop();
    expect(f.logs.filter(([level]) => level === 'warn').map(([, msg]) => msg)).toEqual(['message pump cannot claim messages; it keeps trying every MESSAGE_POLL_MS']);
    expect(f.logs.filter(([level]) => level === 'info').map(([, msg]) => msg)).toEqual(['message pump claims messages again']);
  });

  it('times a send whose outcome could not be recorded as a failed attempt and hands nothing over (the sweep will)', async () => {
    const f = fakeContext(0, { claim: () => [{ uid: 'msg_1', attempts: 1 }], sendClaimed: () => Promise.reject(new Error('connection refused')) });
    const pump = startMessagePump(f.ctx);
    await expect.poll(() => f.timed.length, { timeout: 5000 }).toBe(1);
    await pump.stop();
    expect(f.timed).toEqual(['failed']);
    expect(f.handedOver).toEqual([]);
    expect(f.logs.filter(([level]) => level === 'warn').map(([, msg]) => msg)).toEqual(['message send failed; the re-enqueue sweep will queue it']);
  });
});
