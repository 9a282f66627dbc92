import type { AppContext } from '../shared/app/context.js';
import type { Logger } from '../shared/infra/logger.js';
import { CHANGES_RECORDED_CHANNEL } from '../shared/platform/long-poll/index.js';

/*
 * The fan-out woken by the change feed (issue 37: an event reaches its receiver at once). Every
 * transaction that records changes of a company with a webhook notifies CHANGES_RECORDED_CHANNEL
 * at its commit (the trigger of drizzle/0029); each worker process listens on one connection and
 * runs a fan-out pass (stamp, then events and their delivery jobs: WebhooksService.fanOut) as soon
 * as one arrives, instead of waiting for the scheduled job's next second. Notifications that arrive while a pass runs are
 * served by one more pass after it, at least FAN_OUT_MIN_GAP_MS after the last one began: a busy
 * feed gets passes back to back, each taking all that committed meanwhile, never one per change.
 * Passes of several processes queue on the fan-out's cursor row, each taking what is new.
 *
 * The scheduled job (fan-out-webhook-events, every second) stays: it covers a notification lost
 * while the listening connection was down, and a worker that could not LISTEN at all. postgres.js
 * re-listens after a reconnect and calls onlisten again; that runs a pass too.
 */

/** The least time from the start of one woken pass to the start of the next. */
export const FAN_OUT_MIN_GAP_MS = 10;

export interface FanOutWaker {
  /** A pass now, or one more after the running one. */
  wake(): void;
  /** No pass after this; resolves when the running one (if any) has ended. */
  stop(): Promise<void>;
}

/** The coalescing of wake-ups into passes, apart from where they come from (unit-tested). */
export function createFanOutWaker(pass: () => Promise<unknown>, logger: Pick<Logger, 'warn'>, minGapMs = FAN_OUT_MIN_GAP_MS, failed = 'woken webhook fan-out failed'): FanOutWaker {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  /** When the last pass began (a wake-up after a quiet spell runs at once). */
  let last = 0;
  const loop = async () => {
    do {
      again = false;
      const wait = last + minGapMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (stopped) return;
      last = Date.now();
      // A failed pass is the scheduled job's to make up for; the next wake-up tries again.
      await pass().catch((err: unknown) => logger.warn({ err }, failed));
    } while (again);
  };
  return {
    wake() {
      if (running) {
        again = true;
        return;
      }
      running = loop().finally(() => {
        running = undefined;
      });
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/** How often a worker checks that its LISTEN is still in place (and tries again if it is not). */
export const RELISTEN_CHECK_MS = 10_000;

type ListenSql = Pick<AppContext['database']['sql'], 'listen'>;

/**
 * Listens for recorded changes on the process's database and runs the woken passes. A LISTEN that
 * failed (the database away at start) or that postgres.js dropped (its re-listen after a reconnect
 * failed, silently: the channel is then gone from `listen.channels`) is tried again every
 * `relistenMs`; meanwhile the scheduled fan-out makes the events.
 */
export function startFanOutWaker(ctx: Pick<AppContext, 'services' | 'logger'> & { database: { sql: ListenSql } }, relistenMs = RELISTEN_CHECK_MS): { ready: Promise<void>; stop(): Promise<void> } {
  const waker = createFanOutWaker(() => ctx.services.webhooks.fanOut(() => ctx.services.changes.stamp()), ctx.logger);
  return listenAndWake(ctx.database.sql, CHANGES_RECORDED_CHANNEL, waker, ctx.logger, 'LISTEN for recorded changes failed: webhook events wait for the scheduled fan-out', relistenMs);
}

/**
 * Wakes `waker` on every notification of `channel` (and when the LISTEN is in place, after a
 * reconnect too), keeping the LISTEN in place as startFanOutWaker says; `failed` is logged when it
 * cannot be. stop(): no wake-up after it; resolves when the running pass has ended.
 */
export function listenAndWake(sql: ListenSql, channel: string, waker: FanOutWaker, logger: Pick<Logger, 'warn'>, failed: string, relistenMs = RELISTEN_CHECK_MS): { ready: Promise<void>; stop(): Promise<void> } {
  const wake = () => waker.wake();
  let listener: { unlisten(): Promise<void> } | undefined;
  let pending: Promise<void> | undefined;
  let stopped = false;
  const listen = () =>
    (pending ??= sql
      .listen(channel, wake, wake)
      .then(
        (l) => {
          listener = l;
          if (stopped) void l.unlisten().catch(() => {});
        },
        (err: unknown) => logger.warn({ err }, failed),
      )
      .finally(() => {
        pending = undefined;
      }));
  const ready = listen();
  const keep = setInterval(() => {
    const channels = (sql.listen as unknown as { channels?: Record<string, unknown> }).channels;
    if (listener && channels && !(channel in channels)) listener = undefined;
    if (!listener) void listen();
  }, relistenMs);
  keep.unref();
  return {
    /** Resolves once the first LISTEN is in place (or has failed and been logged). */
    ready,
    async stop() {
      stopped = true;
      clearInterval(keep);
      await waker.stop();
      await pending;
      await listener?.unlisten().catch(() => {});
    },
  };
}

/**
 * A pump's wake-ups (the message pump, the calendar pump): every notification of `channel` (as
 * listenAndWake) and every `pollMs`, for what a lost notification or a resumed queue left.
 * stop(): no wake-up after it; resolves when the LISTEN is released and the waker has stopped.
 */
export function listenAndPoll(sql: ListenSql, channel: string, waker: FanOutWaker, logger: Pick<Logger, 'warn'>, failed: string, pollMs: number): { ready: Promise<void>; stop(): Promise<void> } {
  const listening = listenAndWake(sql, channel, waker, logger, failed);
  const poll = setInterval(() => waker.wake(), pollMs);
  poll.unref();
  return {
    ready: listening.ready,
    async stop() {
      clearInterval(poll);
      await listening.stop();
    },
  };
}
