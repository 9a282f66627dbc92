/*
 * Per-target fairness for outbound deliveries (issue 24 item 3): one app's receiver that hangs or
 * fails may not hold the delivery slots every other app's events wait for.
 * - At most `maxActive` attempts to one target (URL origin) run at once in a process; a delivery
 *   that finds its target busy is deferred (put back in the queue for a moment, no attempt used).
 * - After `failuresToOpen` failed attempts in a row (time-out, 5xx, refused connection) the target's
 *   circuit opens for `openMs`: its deliveries are deferred until then without occupying a worker;
 *   the first attempt after that decides (a success closes it, a failure opens it again).
 * State is per process (each worker process holds its own), owned by the service that made it.
 */

export interface GateSettings {
  maxActive: number;
  failuresToOpen: number;
  openMs: number;
  /** How long a delivery waits before trying a busy target again. */
  busyRetryMs: number;
}

interface TargetState {
  active: number;
  failures: number;
  openUntil: number;
}

export type GateAnswer = { ok: true; release(success: boolean): void } | { ok: false; until: number; why: 'busy' | 'open' };

export class TargetGate {
  private readonly targets = new Map<string, TargetState>();
  constructor(private readonly s: GateSettings) {}

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
      t = { active: 0, failures: 0, openUntil: 0 };
      this.targets.set(key, t);
    }
    if (t.openUntil > now) return { ok: false, until: t.openUntil, why: 'open' };
    if (t.active >= this.s.maxActive) return { ok: false, until: now + this.s.busyRetryMs, why: 'busy' };
    t.active++;
    const state = t;
    let released = false;
    return {
      ok: true,
      release: (success: boolean) => {
        if (released) return;
        released = true;
        state.active--;
        if (success) {
          state.failures = 0;
          state.openUntil = 0;
        } else if (++state.failures >= this.s.failuresToOpen) {
          state.openUntil = Date.now() + this.s.openMs;
        }
      },
    };
  }
}
