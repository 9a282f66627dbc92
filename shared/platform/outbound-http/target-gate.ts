/*
 * Per-target fairness for outbound deliveries (issue 24 item 3): one app's receiver that hangs or
 * fails may not hold the delivery slots every other app's events wait for.
 * - At most `maxActive` attempts to one target (URL origin) run at once in a process; a delivery
 *   that finds its target busy is deferred (put back in the queue for a moment, no attempt used).
 * - A target that keeps answering fast earns more (issue 37): after `limit` fast answers in a row
 *   (each within `fastMs`) while its slots were all taken, its limit grows by one, up to
 *   `maxActiveCeiling`. The first failure or slow answer, or a POST still unanswered after `fastMs`,
 *   puts it back at `maxActive`: a receiver that starts hanging holds at most the slots it had then,
 *   and no new one beyond `maxActive` (each held until the time-out).
 * - After `failuresToOpen` failed attempts in a row (time-out, 5xx, refused connection) the target's
 *   circuit opens for `openMs`: its deliveries are deferred until then without occupying a worker;
 *   the first attempt after that decides (a success closes it, a failure opens it again).
 * State is per process (each worker process holds its own), owned by the service that made it.
 */

import { postWebhook, type PostOptions, type PostOutcome } from './post.js';

export interface GateSettings {
  /** Attempts at once to any target (the floor). */
  maxActive: number;
  /** Up to how many a target answering fast may earn (default maxActive: no growth). */
  maxActiveCeiling?: number;
  /** An answer within this many ms is fast (default 250). */
  fastMs?: number;
  failuresToOpen: number;
  openMs: number;
  /** How long a delivery waits before trying a busy target again. */
  busyRetryMs: number;
}

interface TargetState {
  active: number;
  /** Attempts it may have at once now: maxActive, or more earned by fast answers. */
  limit: number;
  /** Fast answers in a row while it was at its limit. */
  fastInRow: number;
  /** When each POST under way to it started (slow ones put the limit back). */
  posting: Set<{ at: number }>;
  /** When an entry last found it busy (more slots were wanted). */
  wantedAt: number;
  failures: number;
  openUntil: number;
  /** When an attempt to it last succeeded (a target answering now is waited for: enterWaiting). */
  lastOkAt: number;
  /** Callers of enterWaiting waiting for a slot of this busy target, first come first served. */
  waiters: (() => void)[];
}

/**
 * An entry: `release` gives the slot back and counts the attempt for the target's health (nothing
 * counted without `success`); `report` counts an attempt made in a slot kept for several (heldPost),
 * the slot still held.
 */
export type GateAnswer =
  | {
      ok: true;
      release(success?: boolean, ms?: number): void;
      report(success: boolean, ms?: number): void;
      /** A POST starts in this slot: call the answer when it ends (before release or report). */
      posting(): () => void;
    }
  | { ok: false; until: number; why: 'busy' | 'open' };

export class TargetGate {
  private readonly targets = new Map<string, TargetState>();
  private readonly ceiling: number;
  private readonly fastMs: number;
  constructor(private readonly s: GateSettings) {
    this.ceiling = Math.max(s.maxActive, s.maxActiveCeiling ?? s.maxActive);
    this.fastMs = s.fastMs ?? 250;
  }

  /** The attempts a target may have at once now (for tests and metrics). */
  limitOf(key: string): number {
    return this.targets.get(key)?.limit ?? this.s.maxActive;
  }

  /** Back to the floor: a failure, a slow answer, or a POST unanswered for longer than fastMs. */
  private slowDown(t: TargetState): void {
    t.limit = this.s.maxActive;
    t.fastInRow = 0;
  }

  /** More slots are wanted: all are taken, someone waits, or an entry found it busy within the last second. */
  private wanted(t: TargetState): boolean {
    return t.active >= t.limit || t.waiters.length > 0 || Date.now() - t.wantedAt < 1000;
  }

  /** A POST under way for longer than fastMs: the target may be hanging, it earns nothing more now. */
  private stalled(t: TargetState, now: number): boolean {
    for (const p of t.posting) if (now - p.at > this.fastMs) return true;
    return false;
  }

  /** The key of a URL's target: its origin (scheme, host, port). */
  static keyOf(url: string): string {
    try {
      return new URL(url).origin;
    } catch {
      return url;
    }
  }

  enter(key: string, now = Date.now()): GateAnswer {
    let t = this.targets.get(key);
    if (!t) {
      // Bounded: forget idle, closed targets once many are known.
      if (this.targets.size >= 10_000) for (const [k, v] of this.targets) if (v.active === 0 && v.openUntil <= now) this.targets.delete(k);
      t = { active: 0, limit: this.s.maxActive, fastInRow: 0, posting: new Set(), wantedAt: 0, failures: 0, openUntil: 0, lastOkAt: 0, waiters: [] };
      this.targets.set(key, t);
    }
    if (t.openUntil > now) return { ok: false, until: t.openUntil, why: 'open' };
    if (t.limit > this.s.maxActive && t.active >= this.s.maxActive && this.stalled(t, now)) this.slowDown(t);
    if (t.active >= t.limit) {
      t.wantedAt = now;
      return { ok: false, until: now + this.s.busyRetryMs, why: 'busy' };
    }
    t.active++;
    const state = t;
    let released = false;
    const report = (success: boolean, ms?: number) => {
      if (success) {
        state.failures = 0;
        state.openUntil = 0;
        state.lastOkAt = Date.now();
      } else if (++state.failures >= this.s.failuresToOpen) {
        state.openUntil = Date.now() + this.s.openMs;
      }
      if (!success || (ms !== undefined && ms > this.fastMs)) this.slowDown(state);
      else if (ms !== undefined && state.limit < this.ceiling && this.wanted(state) && ++state.fastInRow >= state.limit) {
        // Fast, and every slot was wanted: one more, and whoever waits for it goes now.
        state.limit++;
        state.fastInRow = 0;
        state.waiters.shift()?.();
      }
    };
    return {
      ok: true,
      report,
      posting: () => {
        const p = { at: Date.now() };
        state.posting.add(p);
        return () => state.posting.delete(p);
      },
      release: (success?: boolean, ms?: number) => {
        if (released) return;
        released = true;
        // Counted while its slot is still taken: every slot in use is a target wanting more.
        if (success !== undefined) report(success, ms);
        state.active--;
        state.waiters.shift()?.();
      },
    };
  }

  /**
   * `enter`, but a target that is only busy and answering (an attempt succeeded within `waitMs`,
   * none failed since) is waited for, up to `waitMs`, instead of deferring at once (issue 37: a
   * receiver that answers at once, deferred a second whenever its two slots were taken, drained at
   * 13-20 events/s). A target failing or silent lately (a hung one), an open circuit, or a wait that
   * runs out is deferred exactly as by `enter`.
   */
  async enterWaiting(key: string, waitMs: number): Promise<GateAnswer> {
    const first = this.enter(key);
    const t = this.targets.get(key);
    if (first.ok || first.why !== 'busy' || waitMs <= 0 || !t || t.failures > 0 || Date.now() - t.lastOkAt > waitMs) return first;
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(this.enter(key));
      };
      const timer = setTimeout(() => {
        const i = t.waiters.indexOf(wake);
        if (i >= 0) t.waiters.splice(i, 1);
        resolve({ ok: false, until: Date.now() + this.s.busyRetryMs, why: 'busy' });
      }, waitMs);
      t.waiters.push(wake);
    });
  }
}

/**
 * How an answer counts for its target's health: no answer, a 5xx, 408 or 429 is a failing target;
 * any other answer (a 4xx included) shows it up and answering.
 */
export function targetAnswered(result: PostOutcome): boolean {
  const code = result.statusCode;
  return result.ok || (code !== null && code < 500 && code !== 408 && code !== 429);
}

export type GatedOutcome = PostOutcome | { deferred: true; until: number; why: 'busy' | 'open' };

/**
 * One POST through the gate: deferred (nothing sent) when the target is busy or its circuit open,
 * else sent with postWebhook and counted for the target's health. `waitMs`: see enterWaiting. Every outbound delivery path
 * (webhooks, messaging connectors) goes through here.
 */
export async function gatedPost(
  gate: TargetGate,
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: PostOptions & { waitMs?: number },
): Promise<GatedOutcome> {
  const entry = await gate.enterWaiting(TargetGate.keyOf(url), opts.waitMs ?? 0);
  if (!entry.ok) return { deferred: true, until: entry.until, why: entry.why };
  let result: PostOutcome;
  const done = entry.posting();
  const started = performance.now();
  try {
    result = await postWebhook(url, body, headers, opts);
  } catch (err) {
    done();
    entry.release(false);
    throw err;
  }
  done();
  entry.release(targetAnswered(result), performance.now() - started);
  return result;
}

/**
 * One POST in a slot the caller keeps for several in a row (a webhook drain: one attempt at a time,
 * so it holds one slot like any delivery), counted for the target's health like gatedPost's.
 */
export async function heldPost(
  entry: Extract<GateAnswer, { ok: true }>,
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: PostOptions,
): Promise<PostOutcome> {
  const done = entry.posting();
  const started = performance.now();
  try {
    const result = await postWebhook(url, body, headers, opts);
    entry.report(targetAnswered(result), performance.now() - started);
    return result;
  } finally {
    done();
  }
}
