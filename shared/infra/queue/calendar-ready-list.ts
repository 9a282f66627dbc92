import type { RedisClient } from './connection.js';

/*
 * The calendar pump's ready list (issue 37; CALENDAR_PUMP): where the queue is on Redis, the API
 * names each stored calendar batch on one Redis list after its commit, and each worker's pump
 * takes entries with a blocking pop. Each entry reaches one worker: a batch costs one push, one
 * pop and the job's own claiming apply, with no job to add, fetch or complete, and no statement
 * that finds nothing. The list is a wake-up, not the record: the batch is durable in Postgres
 * before it is pushed, and an entry lost (Redis flushed, a process killed between its pop and its
 * apply) leaves a batch no one started, which the pumps' poll (CALENDAR_POLL_MS) and the re-enqueue
 * sweep apply.
 */

/** What CALENDAR_PUMP may say (config.ts). */
export type CalendarPumpSetting = 'auto' | 'on' | 'notify' | 'off';
/** How calendar batches reach the workers: the ready list, the insert's NOTIFY, or one queue job each. */
export type CalendarPumpMode = 'list' | 'notify' | 'off';

/**
 * The mode of a setting where the queue does (`list`: it is on Redis) or does not have a ready
 * list: `auto` is the list where there is one and a job per batch elsewhere; `on` is the list or
 * else the NOTIFY pump; `notify` is the NOTIFY pump whatever the queue.
 */
export function calendarPumpMode(setting: CalendarPumpSetting, list: boolean): CalendarPumpMode {
  if (setting === 'off' || setting === 'notify') return setting;
  return list ? 'list' : setting === 'on' ? 'notify' : 'off';
}

/** The most entries the list keeps: the oldest beyond are dropped (the poll and the sweep apply their batches). */
export const READY_LIST_MAX = 100_000;

export interface ReadyList {
  /** Names one stored batch (its requests' uids, at most `perEntry` an entry): after its commit. */
  push(uids: readonly string[]): Promise<void>;
  /** Waits at most timeoutSeconds (on a connection of its own) for an entry: its uids, or undefined. */
  take(timeoutSeconds: number): Promise<string[] | undefined>;
  /** Puts a taken entry back, to be taken next (a pump stopping before it applied it). */
  putBack(uids: readonly string[]): Promise<void>;
  /** Closes the blocking connection (after the last take has returned). */
  close(): void;
}

export function readyList(redis: RedisClient, key: string, perEntry: number, max = READY_LIST_MAX): ReadyList {
  let blocking: RedisClient | undefined;
  return {
    async push(uids) {
      const entries: string[] = [];
      for (let i = 0; i < uids.length; i += perEntry) entries.push(uids.slice(i, i + perEntry).join(','));
      if (entries.length === 0) return;
      // One round trip; bounded, so a list no worker takes from (CALENDAR_PUMP off in the workers) stops growing.
      await redis.multi().lpush(key, ...entries).ltrim(key, 0, max - 1).exec();
    },
    async take(timeoutSeconds) {
      blocking ??= (redis as { duplicate(): RedisClient }).duplicate();
      const got = await blocking.brpop(key, timeoutSeconds);
      return got ? got[1].split(',') : undefined;
    },
    async putBack(uids) {
      if (uids.length > 0) await redis.rpush(key, uids.join(','));
    },
    close() {
      blocking?.disconnect();
      blocking = undefined;
    },
  };
}

/** The mode of a runtime: its setting, and whether its calendar queue has a ready list. */
export const pumpModeOf = (infra: { config: { calendar: { pump: CalendarPumpSetting } }; jobs: { calendar: { ready?: unknown } } }): CalendarPumpMode =>
  calendarPumpMode(infra.config.calendar.pump, infra.jobs.calendar.ready !== undefined);
