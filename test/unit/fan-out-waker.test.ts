import { describe, expect, it } from 'vitest';
import { createFanOutWaker, startFanOutWaker } from '../../worker/fan-out-waker.js';

/** A pass that records its start and waits until the test releases it. */
function heldPasses() {
  const starts: number[] = [];
  const releases: Array<() => void> = [];
  const pass = () =>
    new Promise<void>((resolve) => {
      starts.push(Date.now());
      releases.push(resolve);
    });
  const startedCount = async (n: number) => {
    for (let i = 0; i < 400 && starts.length < n; i++) await new Promise((r) => setTimeout(r, 5));
    return starts.length;
  };
  return { pass, starts, releases, startedCount };
}

const quiet = { warn: () => {} };
const settle = () => new Promise((r) => setTimeout(r, 60));

describe('the fan-out woken by recorded changes (issue 37)', () => {
  it('runs a pass at the first wake-up', async () => {
    const p = heldPasses();
    const waker = createFanOutWaker(p.pass, quiet, 0);
    waker.wake();
    expect(await p.startedCount(1)).toBe(1);
    p.releases[0]!();
    await waker.stop();
  });

  it('serves every wake-up that came during a pass with one more pass after it, not one each', async () => {
    const p = heldPasses();
    const waker = createFanOutWaker(p.pass, quiet, 0);
    waker.wake();
    await p.startedCount(1);
    waker.wake();
    waker.wake();
    waker.wake();
    await settle();
    expect(p.starts).toHaveLength(1);
    p.releases[0]!();
    expect(await p.startedCount(2)).toBe(2);
    p.releases[1]!();
    await settle();
    expect(p.starts).toHaveLength(2);
    await waker.stop();
  });

  it('starts the next pass no sooner than the gap after the last one began', async () => {
    const p = heldPasses();
    const waker = createFanOutWaker(p.pass, quiet, 80);
    waker.wake();
    await p.startedCount(1);
    waker.wake();
    p.releases[0]!();
    await p.startedCount(2);
    // Timers may fire a millisecond or two early.
    expect(p.starts[1]! - p.starts[0]!).toBeGreaterThanOrEqual(75);
    p.releases[1]!();
    await waker.stop();
  });

  it('logs a failed pass and runs again at the next wake-up', async () => {
    const warned: unknown[] = [];
    let passes = 0;
    const waker = createFanOutWaker(
      async () => {
        passes++;
        if (passes === 1) throw new Error('database gone');
      },
      { warn: (o: unknown) => void warned.push(o) },
      0,
    );
    waker.wake();
    await settle();
    expect(warned).toHaveLength(1);
    waker.wake();
    await settle();
    expect(passes).toBe(2);
    await waker.stop();
  });

  it('runs no pass once stopped, and stop waits for the running one', async () => {
    const p = heldPasses();
    const waker = createFanOutWaker(p.pass, quiet, 0);
    waker.wake();
    await p.startedCount(1);
    waker.wake();
    let stopped = false;
    const stopping = waker.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    p.releases[0]!();
    await stopping;
    waker.wake();
    await settle();
    expect(p.starts).toHaveLength(1);
  });
});

/** A context whose LISTEN fails the first `failures` times; `channels` as postgres.js keeps them. */
function listeningContext(failures: number) {
  const calls = { listen: 0, passes: 0 };
  const channels: Record<string, unknown> = {};
  const listen = Object.assign(
    async (channel: string, _onNotify: () => void, onListen: () => void) => {
      calls.listen++;
      if (calls.listen <= failures) throw new Error('connection refused');
      channels[channel] = true;
      onListen();
      return { unlisten: async () => void delete channels[channel] };
    },
    { channels },
  );
  const ctx = {
    database: { sql: { listen } },
    logger: { warn: () => {} },
    services: { changes: { stamp: async () => [] }, webhooks: { fanOut: async () => void calls.passes++ } },
  } as unknown as Parameters<typeof startFanOutWaker>[0];
  return { ctx, calls, channels };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('the waker\'s LISTEN', () => {
  it('is tried again after it failed, and its first pass runs once it is in place', async () => {
    const { ctx, calls } = listeningContext(1);
    const waker = startFanOutWaker(ctx, 20);
    await until(() => calls.passes > 0);
    expect(calls.listen).toBe(2);
    expect(calls.passes).toBe(1);
    await waker.stop();
  });

  it('is made again when postgres.js dropped it (a re-listen after a reconnect that failed)', async () => {
    const { ctx, calls, channels } = listeningContext(0);
    const waker = startFanOutWaker(ctx, 20);
    await waker.ready;
    delete channels.changes_recorded;
    await until(() => calls.listen > 1);
    expect(calls.listen).toBe(2);
    expect(channels.changes_recorded).toBe(true);
    await waker.stop();
  });
});
