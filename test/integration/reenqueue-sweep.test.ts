import type { Queue } from 'bullmq';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DurableRowsOf } from '../../shared/app/durable-rows.js';
import type { Runtime } from '../../shared/app/runtime.js';
import { jobRegistry, type DurableJobName } from '../../shared/infra/queue/registry.js';
import { durableGroups, sweepRows } from '../../worker/reenqueue-sweep.js';
import { testConfig } from '../support/api.js';
import { fastQueueEnv } from '../support/pipeline.js';
import type { TestQueue } from '../support/queue.js';
import { useWorld } from '../support/world.js';

/*
 * The re-enqueue sweep over every durable job the registry declares (issue 34 item 3): for each
 * kind of row, a row whose job the queue does not hold is added again, one whose job failed for
 * good is recorded on the row ('record') or added again ('retry'), one whose job completed while
 * the row stayed open is removed and added again, one whose job waits is left alone.
 */

const registry = jobRegistry(testConfig(fastQueueEnv));

describe('the re-enqueue sweep', () => {
  const t = useWorld();
  let queue: TestQueue;
  let ctx: Runtime;

  beforeAll(async () => {
    queue = t.queue();
    ctx = await t.runtime({ env: fastQueueEnv, queue: queue.conn });
  });

  it('groups the durable jobs by their rows, one queue each', () => {
    const groups = durableGroups(registry).map((g) => [g.rows, g.queue, [...g.declared.keys()].sort()]);
    expect(groups).toEqual([
      ['calendar_requests', 'calendar', ['apply-calendar-request', 'apply-listing-status']],
      ['webhook_events', 'webhooks', ['deliver-webhook']],
      ['messages', 'messages', ['send-message']],
    ]);
  });

  for (const group of durableGroups(registry)) {
    it(`${group.rows}: adds lost jobs again, records or retries failed ones, redoes completed ones, leaves waiting ones`, async () => {
      const jobs = ctx.jobs[group.queue];
      const job = [...group.declared.keys()][0] as DurableJobName;
      const uid = (s: string) => `${group.rows}-${s}`;
      // The queue's own states, made with a worker of the test's: one job fails for good, one completes.
      const field = group.declared.get(job)!.uidField;
      // One attempt each (the registry's retries would keep the failing one delayed).
      for (const s of ['failed', 'completed']) {
        await (jobs.queue as unknown as Queue).add(job, { [field]: uid(s) }, { jobId: uid(s), attempts: 1 });
      }
      const worker = queue.conn.createWorker(group.queue, async (j) => {
        if (j.id === uid('failed')) throw new Error('receiver gone');
        return {};
      }, { concurrency: 1, autorun: true });
      try {
        const settled = async () => (await jobs.jobState(uid('failed'))) === 'failed' && (await jobs.jobState(uid('completed'))) === 'completed';
        for (let i = 0; i < 200 && !(await settled()); i++) await new Promise((r) => setTimeout(r, 100));
        expect(await settled()).toBe(true);
      } finally {
        await worker.close();
      }
      await (jobs.add as (u: string[], j: DurableJobName) => Promise<void>)([uid('waiting')], job);

      const recorded: string[] = [];
      const rows: DurableRowsOf = {
        label: group.rows,
        claimLost: async () => ['lost', 'failed', 'completed', 'waiting'].map((s) => ({ uid: uid(s), job })),
        recordFailure: async (u, reason) => {
          recorded.push(`${u}: ${reason}`);
        },
      };
      const result = await sweepRows(ctx, group, rows);

      // A webhook event is settled by its delivery handler (past WEBHOOK_MAX_AGE_MS): its job is retried.
      const records = group.rows !== 'webhook_events';
      expect(group.declared.get(job)?.failedForGood).toBe(records ? 'record' : 'retry');
      expect(recorded).toEqual(records ? [`${uid('failed')}: receiver gone`] : []);
      expect(result).toEqual({ readded: records ? 2 : 3, markedError: records ? 1 : 0 });
      expect(await jobs.jobState(uid('lost'))).toBe('waiting');
      expect(await jobs.jobState(uid('completed'))).toBe('waiting');
      expect(await jobs.jobState(uid('failed'))).toBe(records ? 'failed' : 'waiting');
      expect(await jobs.jobState(uid('waiting'))).toBe('waiting');
      // The payload carries the row's uid under the job's declared field.
      const again = await jobs.queue.getJob(uid('lost'));
      expect(again?.name).toBe(job);
      expect(again?.data).toEqual({ [field]: uid('lost') });
    });
  }
});
