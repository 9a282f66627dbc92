import { gcraResult, PERIOD_MS, type RateLimiter, type RateLimitResult, type SharedRateLimiter } from './rate-limiter.js';

/*
 * Leases of the per-token allowance (issue 37: the shared counter's round trip was on every
 * request's path, 0.3-0.6 ms of an idle batch's submit -> completed and a tenth of the API's CPU per
 * batch). The process takes a few requests' allowance of a token from the shared counter at once
 * and spends it from memory; it takes the next lease in the background while the last ones are
 * spent, so a request waits for the shared counter only when this process holds nothing of its
 * token (its first request, or one refused).
 *
 * What stays exact: no more than the limit passes across all API processes (a lease is taken from
 * the shared counter, all or none, before a request spends it). What becomes approximate with
 * several processes: a request may be refused while another process still holds a few leased
 * requests of its token (at most 1% of the limit each, given up after LEASE_TTL_MS), and the
 * RateLimit header's `remaining` is what this process knows: the shared count at its last lease plus
 * what it holds. With one API process both are exact.
 *
 * Only hits of the default limit are leased: the per-token limit and the inbound channels'. Hits
 * that name their own limit (failed authentications per address) are counted one by one.
 */

/** Leased requests are given up after this long unspent (they stay counted by the shared counter). */
export const LEASE_TTL_MS = 10_000;
/** A lease holds at most this share of a minute's allowance (and at least one request). */
const LEASE_SHARE = 0.01;
/** A lease holds about 1 / LEASES_PER_SECOND of the key's requests per second in this process. */
const LEASES_PER_SECOND = 20;
/** Past this many keys, ones idle for a lease's lifetime are forgotten. */
const MAX_KEYS = 10_000;

interface Held {
  /** Requests leased and not yet spent. */
  cells: number;
  /** The key's TAT after the last lease (or before a refused one), as the shared counter answered. */
  tat: number;
  leasedAt: number;
  /** The last lease was refused: the shared counter had not one request left. */
  refused: boolean;
  pending?: Promise<void>;
  /** Hits of this process in the current second and the one before (the lease's size). */
  second: number;
  hits: number;
  lastHits: number;
}

export interface LeaseOptions {
  now?: () => number;
}

export function withLeases(shared: SharedRateLimiter, limit: number, opts: LeaseOptions = {}): RateLimiter {
  const now = opts.now ?? Date.now;
  const held = new Map<string, Held>();
  const cap = Math.max(1, Math.floor(limit * LEASE_SHARE));
  const interval = PERIOD_MS / limit;
  const size = (h: Held) => Math.min(cap, Math.max(1, Math.ceil(Math.max(h.hits, h.lastHits) / LEASES_PER_SECOND)));

  /** Takes a lease of the key (one at a time per key); near the limit, one request's worth. */
  function lease(key: string, h: Held): Promise<void> {
    h.pending ??= (async () => {
      const n = size(h);
      let r = await shared.take(key, n, limit);
      let got = r.taken ? n : 0;
      if (!r.taken && n > 1) {
        r = await shared.take(key, 1, limit);
        got = r.taken ? 1 : 0;
      }
      h.cells = (r.now - h.leasedAt < LEASE_TTL_MS ? h.cells : 0) + got;
      if (got > 0) h.leasedAt = r.now;
      h.tat = r.tat;
      h.refused = got === 0;
    })().finally(() => {
      h.pending = undefined;
    });
    return h.pending;
  }

  function stateOf(key: string, t: number): Held {
    let h = held.get(key);
    if (!h) {
      if (held.size >= MAX_KEYS) {
        for (const [k, v] of held) if (!v.pending && t - v.leasedAt >= LEASE_TTL_MS && t - v.second * 1000 >= LEASE_TTL_MS) held.delete(k);
      }
      h = { cells: 0, tat: 0, leasedAt: -Infinity, refused: false, second: 0, hits: 0, lastHits: 0 };
      held.set(key, h);
    }
    const second = Math.floor(t / 1000);
    if (second !== h.second) {
      h.lastHits = second === h.second + 1 ? h.hits : 0;
      h.hits = 0;
      h.second = second;
    }
    h.hits += 1;
    return h;
  }

  return {
    async hit(key, ownLimit): Promise<RateLimitResult> {
      if (ownLimit !== undefined) return shared.hit(key, ownLimit);
      const h = stateOf(key, now());
      // Each round either spends a held request, ends refused, or waits for a lease that another
      // hit of the same key may spend first; after a few such rounds the shared counter decides.
      for (let round = 0; round < 4; round++) {
        const t = now();
        if (h.cells > 0 && t - h.leasedAt < LEASE_TTL_MS) {
          h.cells -= 1;
          // Counted as if the requests spent so far had been taken now, and the ones still held
          // not at all: what the shared counter would say had this process leased nothing (a
          // lease taken seconds ago has dripped back by now).
          const answer = gcraResult(true, Math.max(h.tat - h.cells * interval, t + interval), t, limit);
          // The next lease is taken while the last of these are spent; its failure is the next
          // waiting hit's to report (withLocalFallback counts that hit in memory).
          if (h.cells * 2 < size(h)) lease(key, h).catch(() => {});
          return answer;
        }
        await lease(key, h);
        if (h.refused && h.cells === 0) return gcraResult(false, h.tat, now(), limit);
      }
      return shared.hit(key, limit);
    },
  };
}
