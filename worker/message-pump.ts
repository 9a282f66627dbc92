import type { AppContext } from '../shared/app/context.js';
import { MESSAGES_QUEUED_CHANNEL, type DeliverResult, type Outgoing } from '../shared/domain/messaging/index.js';
import { withLogContext } from '../shared/infra/logger.js';
import { retryDelayMs } from '../shared/infra/queue/registry.js';
import { createFanOutWaker, listenAndPoll } from './fan-out-waker.js';

/*
 * The message pump (issue 37: messages at 0.4 of a bare SMTP loop, accept -> completed p50 20 ms).
 * A message to a guest is not queued by the API: its insert notifies MESSAGES_QUEUED_CHANNEL at
 * commit (drizzle/0032), and every worker process's pump, listening, claims what is new from
 * Postgres (claimUnsent: `processing`, the attempt counted, what sending needs, one statement for
 * up to MESSAGE_CONCURRENCY messages, rows another pump holds skipped), sends each through its
 * channel and records the outcome (the sent ones group-committed). Per message that is no queue
 * round trip on the accept, none to fetch or complete a job, and no statement of its own to claim it.
 *
 * The pump tries a message once. What must wait goes to the queue as the send-message job, to run
 * when it is due, with the job's retries from there: a transient failure (after the first backoff
 * delay), a busy connector or an open circuit (at its `until`, no attempt used). A message the pump
 * claimed and never finished (the worker killed) is `processing` with its `started_at`: the
 * re-enqueue sweep adds its job after REENQUEUE_AFTER_MS, as for a lost job. The pump never takes a
 * message the sweep has claimed (`enqueued_at`) or that was tried before (`started_at`): those are
 * the queue's. A paused messages queue pauses the pump too.
 *
 * Passes: one at each notification (coalesced: one pass after the running one takes all that
 * committed meanwhile, at least PUMP_MIN_GAP_MS after the last began), one every MESSAGE_POLL_MS,
 * one when the LISTEN is (again) in place, and one when a slot is freed while the last claim had
 * filled every free slot or a notification found none free. A send holds its slot until its
 * channel has answered; its recording (group-committed with the others') holds none, so a slow
 * commit never keeps the next message from its channel.
 */

/** The least time from the start of one woken pass to the start of the next (a flood's claims take several messages each). */
export const PUMP_MIN_GAP_MS = 2;

export interface MessagePump {
  /** Resolves once the first LISTEN is in place (or has failed and been logged). */
  ready: Promise<void>;
  /** No claim after this; resolves when the sends in flight have ended. */
  stop(): Promise<void>;
  /** Messages this pump is sending now. */
  inFlight(): number;
}

export function startMessagePump(ctx: AppContext): MessagePump {
  const { messaging } = ctx.services;
  const { concurrency, pollMs, backoff } = ctx.config.messaging;
  const sending = new Set<Promise<void>>();
  /** There may be more to claim than the slots took: a send that ends wakes the pump again. */
  let more = false;
  let stopped = false;
  /** The last claim failed (logged once until one succeeds). */
  let claimFailing = false;
  /** Slots taken: a send's slot is free once its channel has answered (its recording, group-committed, holds none). */
  let busy = 0;

  /** What the pump does with one attempt's outcome: what must wait goes to the queue. */
  const settle = async (m: Outgoing, result: DeliverResult) => {
    // A retry waits the first delay, and the job's own retries double on from the second.
    if (result.outcome === 'retry') await messaging.handOver(m.uid, retryDelayMs(backoff, 0), retryDelayMs(backoff, 1));
    else if (result.outcome === 'deferred') await messaging.handOver(m.uid, result.until - Date.now());
    else if (result.outcome === 'error') ctx.logger.warn({ error: result.error }, 'message failed for good');
  };
  // Timed as the send-message job's attempts are (pops_job_duration_seconds{job="send-message"}):
  // a dashboard sees every attempt, the pump's and the queue's.
  const outcomeOf = (r: DeliverResult) => (r.outcome === 'retry' ? 'failed' : r.outcome === 'deferred' ? 'deferred' : 'completed');
  const send = (m: Outgoing, freeSlot: () => void) =>
    withLogContext({ messageUid: m.uid }, async () => {
      const done = ctx.metrics.jobDuration.startTimer({ job: 'send-message' });
      let result: DeliverResult;
      try {
        result = await messaging.sendClaimed(m, false, () => freeSlot());
      } catch (err) {
        // Its outcome not recorded (Postgres away): the message stays `processing`; the sweep adds its job later.
        done({ outcome: 'failed' });
        ctx.logger.warn({ err }, 'message send failed; the re-enqueue sweep will queue it');
        return;
      }
      done({ outcome: outcomeOf(result) });
      // The queue not answering: the message stays `processing` (or `queued`, deferred); the sweep adds its job later.
      await settle(m, result).catch((err: unknown) => ctx.logger.warn({ err }, 'message hand-over to the queue failed; the re-enqueue sweep will queue it'));
    });

  const pass = async () => {
    if (stopped || (await ctx.jobs.messages.isPaused().catch(() => false))) return;
    const free = concurrency - busy;
    if (free <= 0) {
      more = true;
      return;
    }
    let claimed: Outgoing[];
    try {
      claimed = await messaging.claimUnsent(free);
    } catch (err) {
      // Postgres away: said once, not at every poll; the messages wait in their rows.
      if (!claimFailing) ctx.logger.warn({ err }, 'message pump cannot claim messages; it keeps trying every MESSAGE_POLL_MS');
      claimFailing = true;
      return;
    }
    if (claimFailing) ctx.logger.info('message pump claims messages again');
    claimFailing = false;
    more = claimed.length === free;
    for (const m of claimed) {
      busy++;
      let freed = false;
      const freeSlot = () => {
        if (freed) return;
        freed = true;
        busy--;
        if (more && !stopped) waker.wake();
      };
      const p: Promise<void> = send(m, freeSlot).finally(() => {
        sending.delete(p);
        freeSlot();
      });
      sending.add(p);
    }
  };
  const waker = createFanOutWaker(pass, ctx.logger, PUMP_MIN_GAP_MS, 'message pump pass failed');
  const listening = listenAndPoll(ctx.database.sql, MESSAGES_QUEUED_CHANNEL, waker, ctx.logger, 'LISTEN for stored messages failed: the message pump looks every MESSAGE_POLL_MS', pollMs);
  return {
    ready: listening.ready,
    inFlight: () => sending.size,
    async stop() {
      stopped = true;
      await listening.stop();
      await Promise.all([...sending]);
    },
  };
}
