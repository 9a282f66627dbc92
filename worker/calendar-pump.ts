import type { AppContext } from '../shared/app/context.js';
import { REQUESTS_QUEUED_CHANNEL } from '../shared/platform/requests/index.js';
import { listenAndPoll } from './fan-out-waker.js';
import { startListPump } from './calendar-list-pump.js';
import { pumpStep, type CalendarPump } from './calendar-pump-step.js';
import { pumpModeOf } from '../shared/infra/queue/calendar-ready-list.js';

/*
 * The calendar pump (issue 37: an idle batch applied at once; CALENDAR_PUMP, shared/infra/config.ts).
 * Where the queue is on Redis (the default, `auto`) it is the ready list: calendar-list-pump.ts.
 * This file is its NOTIFY form (`notify`, or `on` without Redis): a calendar batch is not
 * queued by the API; its insert notifies REQUESTS_QUEUED_CHANNEL at commit (InsertOptions.wake),
 * and every worker process's pump, listening, claims and applies the oldest batch no one has
 * started, in ONE statement (CalendarService.applyNext: the job's claiming apply, its requests
 * picked by the statement itself, `for update skip locked`).
 * Per batch that is no queue round trip on the accept, none to fetch or complete a job, and no
 * statement of its own to claim it.
 *
 * Loops: a wake-up (a notification, every CALENDAR_POLL_MS, the LISTEN (again) in place) starts
 * a loop when none runs. A loop applies batch after batch while its statement says others wait
 * (it counts them), and starts one more loop beside it each time more wait than loops run, up to
 * WORKER_CONCURRENCY: a flood is applied that many at a time, an idle batch by one statement, and
 * few statements find nothing. A loop whose statement saw nothing more to claim ends, unless a
 * wake-up came while it ran and it claimed a batch (or no other loop of the process runs).
 *
 * What the pump cannot apply goes to the queue as the batch's job (CalendarService.handOver,
 * marked `enqueued_at` first, so no pump takes it again): a batch held up on a lock past
 * CLAIM_LOCK_WAIT (the job's claim then shows it `processing` while it waits), a statement that
 * failed (the job's retries, and its end in `error`), requests it claimed and did not complete
 * (their property gone). A failed statement claimed nothing, so what goes is the oldest batch not
 * started when the hand-over runs: the one that failed, unless another pump took it meanwhile
 * (then a later batch takes the job path, applied all the same). A pump killed mid-statement leaves nothing claimed: its transaction is
 * rolled back and the batch waits for the next pump. A batch no pump took within REENQUEUE_AFTER_MS
 * (no worker running, the queue paused) is queued by the re-enqueue sweep. A paused calendar queue
 * pauses the pump too.
 */

export function startCalendarPump(ctx: AppContext): CalendarPump {
  const ready = ctx.jobs.calendar.ready;
  if (pumpModeOf(ctx) === 'list' && ready) return startListPump(ctx, ready, pumpStep(ctx, { lookOnly: true }));
  const pump = pumpStep(ctx);
  const { step } = pump;
  const slots = ctx.config.queue.concurrency;
  const loops = new Set<Promise<void>>();
  let stopped = false;
  /** Wake-ups so far: a loop that found nothing goes on when one came while its statement ran. */
  let wakes = 0;

  const loop = async () => {
    for (;;) {
      if (stopped || (await ctx.jobs.calendar.isPaused().catch(() => false))) return;
      const seen = wakes;
      const { claimed, waiting } = await step();
      // This loop takes one of them; one more loop beside it while more wait than loops run (so
      // several workers told of the same batches do not each start a loop for every one).
      if (waiting > 0) {
        if (loops.size < Math.min(slots, waiting)) start();
        continue;
      }
      // Nothing more seen by its statement. A batch committed while it ran (a wake-up meanwhile)
      // is looked for once more: by this loop if it claimed one, else only if no other loop of
      // this process runs (each of which looks again itself). A loop that found nothing in a
      // flood would otherwise go on sending statements that find nothing.
      const woken = wakes !== seen && !pump.failing();
      if (!woken || (!claimed && loops.size > 1)) return;
    }
  };
  const start = () => {
    if (stopped) return;
    const p: Promise<void> = loop()
      .catch((err: unknown) => ctx.logger.warn({ err }, 'calendar pump loop failed'))
      .finally(() => loops.delete(p));
    loops.add(p);
  };
  // A running loop sees the wake-up (it goes on after its statement); none running: one starts.
  const wake = () => {
    wakes++;
    if (loops.size === 0) start();
  };

  const waker = {
    wake,
    async stop() {
      stopped = true;
      await Promise.all([...loops]);
    },
  };
  const failed = 'LISTEN for stored calendar batches failed: the calendar pump looks every CALENDAR_POLL_MS';
  const listening = listenAndPoll(ctx.database.sql, REQUESTS_QUEUED_CHANNEL, waker, ctx.logger, failed, ctx.config.calendar.pollMs);
  return {
    ready: listening.ready,
    inFlight: () => loops.size,
    async stop() {
      stopped = true;
      await listening.stop();
    },
  };
}

