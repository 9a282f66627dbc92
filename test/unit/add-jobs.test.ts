import type { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { addJobs } from '../../shared/infra/queue/producer.js';

/** A queue that notes which BullMQ call each add went through. */
function fakeQueue() {
  const calls: string[] = [];
  const queue = {
    add: async (name: string) => void calls.push(`add ${name}`),
    addBulk: async (jobs: { name: string }[]) => void calls.push(`addBulk ${jobs.map((j) => j.name).join(',')}`),
  } as unknown as Queue;
  return { queue, calls };
}

describe('addJobs (issue 37: no ioredis pipeline for a single job)', () => {
  it('adds one job with add, several with one addBulk, none with nothing', async () => {
    const { queue, calls } = fakeQueue();
    await addJobs(queue, [{ name: 'a', data: {}, opts: { jobId: 'a' } }]);
    await addJobs(queue, [
      { name: 'b', data: {}, opts: { jobId: 'b' } },
      { name: 'c', data: {}, opts: { jobId: 'c' } },
    ]);
    await addJobs(queue, []);
    expect(calls).toEqual(['add a', 'addBulk b,c']);
  });
});
