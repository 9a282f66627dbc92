import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../shared/app/context.js';
import { startMessagePump } from '../../worker/message-pump.js';

/** A worker's context as far as the pump reads it, over a database whose claims fail `failures` times. */
function fakeContext(failures: number) {
  const logs: Array<[string, string]> = [];
  let claims = 0;
  const log = (level: string) => (a: unknown, b?: unknown) => logs.push([level, typeof a === 'string' ? a : String(b)]);
  const ctx = {
    config: { messaging: { concurrency: 4, pollMs: 10, backoff: { delayMs: 10, maxMs: 10 } } },
    services: {
      messaging: {
        claimUnsent: async () => {
          claims++;
          if (claims <= failures) throw new Error('connection refused');
          return [];
        },
      },
    },
    jobs: { messages: { isPaused: async () => false } },
    database: { sql: { listen: async () => ({ unlisten: async () => {} }) } },
    logger: { warn: log('warn'), info: log('info'), debug: log('debug') },
    metrics: {},
  } as unknown as AppContext;
  return { ctx, logs, claims: () => claims };
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
});
