import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../shared/app/context.js';
import { FAN_OUT_BUSY_MS, FAN_OUT_PAUSE_MS, fanOutWebhookEventsHandler } from '../../worker/handlers/deliver-webhook.js';

/** A context whose fan-out makes `made[i]` events on pass i (the last value ever after). */
function contextMaking(made: number[]) {
  const passes: number[] = [];
  const deps = {
    logger: { debug: () => {} },
    services: {
      changes: { stamp: async () => [] },
      webhooks: {
        fanOut: async (stamp: () => Promise<unknown>) => {
          await stamp();
          passes.push(Date.now());
          return made[Math.min(passes.length - 1, made.length - 1)]!;
        },
      },
    },
  } as unknown as AppContext;
  return { handler: fanOutWebhookEventsHandler(deps), passes };
}

const run = (h: ReturnType<typeof contextMaking>['handler']) => h.run({}, {} as never);

describe('the scheduled webhook fan-out (issue 37)', () => {
  it('runs pass after pass while they make events, and stops at the first that makes none', async () => {
    const { handler, passes } = contextMaking([5, 3, 0, 7]);
    expect(await run(handler)).toEqual({ events: 8 });
    expect(passes).toHaveLength(3);
    // The passes are FAN_OUT_PAUSE_MS apart (timers may fire a little early or late).
    expect(passes[1]! - passes[0]!).toBeGreaterThanOrEqual(FAN_OUT_PAUSE_MS - 5);
  });

  it('ends within FAN_OUT_BUSY_MS while every pass makes events (the next scheduled run goes on)', async () => {
    const { handler, passes } = contextMaking([1]);
    const t0 = Date.now();
    const result = await run(handler);
    expect(Date.now() - t0).toBeLessThan(FAN_OUT_BUSY_MS + 500);
    expect(passes.length).toBeGreaterThan(2);
    expect(passes.length).toBeLessThanOrEqual(Math.ceil(FAN_OUT_BUSY_MS / FAN_OUT_PAUSE_MS) + 1);
    expect(result).toEqual({ events: passes.length });
  });

  it('makes one pass when there is nothing to fan out', async () => {
    const { handler, passes } = contextMaking([0]);
    expect(await run(handler)).toEqual({ events: 0 });
    expect(passes).toHaveLength(1);
  });
});
