import { describe, expect, it } from 'vitest';
import { retryingDeadlocks } from '../../shared/infra/queue/producer.js';

/** An error as node-postgres (the queue's Postgres backend) raises it. */
const pgError = (code: string) => Object.assign(new Error(code === '40P01' ? 'deadlock detected' : 'other'), { code });

describe('retryingDeadlocks (workers upserting the same job schedulers at once)', () => {
  it('runs again after a deadlock, and answers what the run answers', async () => {
    let calls = 0;
    const answer = await retryingDeadlocks(async () => {
      calls++;
      if (calls < 3) throw pgError('40P01');
      return 'upserted';
    }, 5, 1);
    expect(answer).toBe('upserted');
    expect(calls).toBe(3);
  });

  it('throws any other error at once', async () => {
    let calls = 0;
    const run = retryingDeadlocks(async () => {
      calls++;
      throw pgError('23505');
    }, 5, 1);
    await expect(run).rejects.toMatchObject({ code: '23505' });
    expect(calls).toBe(1);
  });

  it('gives up after the last try, throwing the deadlock', async () => {
    let calls = 0;
    const run = retryingDeadlocks(async () => {
      calls++;
      throw pgError('40P01');
    }, 3, 1);
    await expect(run).rejects.toMatchObject({ code: '40P01' });
    expect(calls).toBe(3);
  });
});
