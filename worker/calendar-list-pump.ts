import type { AppContext } from '../shared/app/context.js';
import type { ApplyOutcome } from '../shared/domain/calendar/index.js';
import type { ReadyList } from '../shared/infra/queue/calendar-ready-list.js';
import { recordApplied, type CalendarPump, type PumpStep } from './calendar-pump-step.js';

/*
 * The calendar pump where the queue is on Redis (CALENDAR_PUMP auto or on; issue 37): the API names
 * each stored batch on the ready list after its commit (shared/infra/queue/calendar-ready-list.ts),
 * and this takes the entries, one worker each, WORKER_CONCURRENCY at a time: each is applied by
 * the job's own claiming apply (CalendarService.apply: the claim in the apply, and the claim first
 * when a lock holds it up past CLAIM_LOCK_WAIT). No job is added, fetched or completed, and no
 * statement is sent that finds nothing.
 *
 * Batches no entry names (an entry lost with Redis, or taken by a worker killed before it applied
 * it) are left unstarted in Postgres. Every CALENDAR_POLL_MS the pump's own statement (applyNextSql:
 * the oldest batch stored over CALENDAR_POLL_MS ago and not started) looks for them, up to
 * WORKER_CONCURRENCY statements while each claims one, also while Redis is away; the re-enqueue sweep queues what is left after REENQUEUE_AFTER_MS. A batch both
 * named and found is applied once: the second apply finds it claimed or completed.
 *
 * What the apply cannot do goes to the queue as the batch's job (marked `enqueued_at`): a batch
 * held up on a lock past CLAIM_LOCK_WAIT (the job's claim then shows it `processing` while it
 * waits, and the sweep sees its job), a statement that failed (the job's retries end it `error` if
 * they must). A paused calendar queue pauses the taking and the look. Stopping, an entry taken and not started is put back.
 */
export function startListPump(ctx: AppContext, ready: ReadyList, pump: PumpStep): CalendarPump {
  const { calendar } = ctx.services;
  const slots = ctx.config.queue.concurrency;
  const pollMs = ctx.config.calendar.pollMs;
  const tasks = new Set<Promise<unknown>>();
  let stopped = false;
  /** The list could not be read (logged once until it can). */
  let failing = false;
  /** Ends at its time or when the pump stops, whichever comes first. */
  let wakeUp = () => {};
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const run = (task: () => Promise<unknown>) => {
    const t: Promise<unknown> = task()
      .catch((err: unknown) => ctx.logger.warn({ err }, 'calendar pump task failed'))
      .finally(() => tasks.delete(t));
    tasks.add(t);
  };

  /** One entry: its batch applied as its job would apply it, or handed to the queue. */
  const apply = async (uids: readonly string[]) => {
    const timer = ctx.metrics.jobDuration.startTimer({ job: 'apply-calendar-request' });
    let outcome: ApplyOutcome;
    try {
      outcome = await calendar.apply(uids[0] as string, uids.slice(1), { heldUp: 'throw' });
    } catch (err) {
      timer({ outcome: 'failed' });
      await pump.handOver(uids, (err as { code?: string }).code === '55P03' ? 'held up on a lock' : 'its statement failed', err);
      return;
    }
    timer({ outcome: 'completed' });
    await recordApplied(ctx, uids[0], [outcome, ...(outcome.siblings ?? [])].filter((o) => o.status === 'completed'));
    // Its first request gone (retention cannot take a queued one): the job's handler fails it for good.
    if (outcome.status === 'missing') await pump.handOver(uids, 'its request is missing');
  };

  /**
   * The pump's own statement, for batches no entry names: every CALENDAR_POLL_MS, up to
   * WORKER_CONCURRENCY statements while each claims one. On a timer of its own, not between takes:
   * while Redis is away a take waits for it, and the look goes on applying batches from Postgres.
   */
  let looking = false;
  const look = async () => {
    looking = true;
    try {
      if (await ctx.jobs.calendar.isPaused().catch(() => false)) return;
      for (let i = 0; i < slots && !stopped; i++) if (!(await pump.step()).claimed) return;
    } finally {
      looking = false;
    }
  };
  // One look at a time, in a free slot.
  const looks = setInterval(() => !looking && !stopped && tasks.size < slots && run(look), pollMs);

  const take = async (): Promise<string[] | undefined> => {
    try {
      const uids = await ready.take(pollMs / 1000);
      if (failing) ctx.logger.info('calendar pump reads its ready list again');
      failing = false;
      return uids;
    } catch (err) {
      if (stopped) return [];
      if (!failing) ctx.logger.warn({ err }, 'calendar pump cannot read its ready list; it looks in Postgres every CALENDAR_POLL_MS');
      failing = true;
      await sleep(pollMs);
      return [];
    }
  };

  const reader = (async () => {
    while (!stopped) {
      if (tasks.size >= slots) {
        await Promise.race(tasks);
        continue;
      }
      if (await ctx.jobs.calendar.isPaused().catch(() => false)) {
        await sleep(pollMs);
        continue;
      }
      const uids = await take();
      if (!uids || uids.length === 0) continue;
      if (stopped) {
        await ready.putBack(uids).catch((err: unknown) => ctx.logger.warn({ err, requestUids: uids }, 'calendar pump: entry not put back; the poll or the sweep applies its batch'));
        break;
      }
      run(() => apply(uids));
    }
  })();

  return {
    ready: Promise.resolve(),
    inFlight: () => tasks.size,
    async stop() {
      stopped = true;
      clearInterval(looks);
      wakeUp();
      // The take in flight ends with its connection: Redis pops nothing for a client gone. (An entry
      // popped in the instant before, its answer unread, is lost: its batch waits for a look or the sweep.)
      ready.close();
      await reader;
      await Promise.all([...tasks]);
    },
  };
}
