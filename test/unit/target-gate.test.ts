import { describe, expect, it } from 'vitest';
import { TargetGate } from '../../shared/platform/outbound-http/index.js';

const settings = { maxActive: 2, failuresToOpen: 3, openMs: 30_000, busyRetryMs: 1000 };

describe('TargetGate (issue 24 item 3)', () => {
  it('lets at most maxActive attempts to one target run at once, others not concerned', () => {
    const gate = new TargetGate(settings);
    const [a1, a2, a3] = [gate.enter('https://a.example', 0), gate.enter('https://a.example', 0), gate.enter('https://a.example', 0)];
    expect([a1.ok, a2.ok, a3.ok]).toEqual([true, true, false]);
    expect(a3).toEqual({ ok: false, until: 1000, why: 'busy' });
    expect(gate.enter('https://b.example', 0).ok).toBe(true);
    if (a1.ok) a1.release(true);
    expect(gate.enter('https://a.example', 0).ok).toBe(true);
  });

  it('opens the circuit after failuresToOpen failures in a row, until openMs has passed; a success closes it', () => {
    const gate = new TargetGate(settings);
    const fail = () => {
      const e = gate.enter('t', Date.now());
      if (e.ok) e.release(false);
      return e.ok;
    };
    expect([fail(), fail(), fail()]).toEqual([true, true, true]);
    const refused = gate.enter('t', Date.now());
    expect(refused).toMatchObject({ ok: false, why: 'open' });
    if (!refused.ok) expect(refused.until).toBeGreaterThan(Date.now() + 29_000);
    // After the open time, one attempt decides: a success closes the circuit.
    const later = Date.now() + 31_000;
    const trial = gate.enter('t', later);
    expect(trial.ok).toBe(true);
    if (trial.ok) trial.release(true);
    expect(gate.enter('t', later).ok).toBe(true);
  });

  it('enterWaiting waits for a slot of a busy target that answers, and defers a failing one at once (issue 37)', async () => {
    const gate = new TargetGate(settings);
    // Never answered yet: deferred at once.
    const [z1, z2] = [gate.enter('a'), gate.enter('a')];
    expect(await gate.enterWaiting('a', 1000)).toMatchObject({ ok: false, why: 'busy' });
    if (z1.ok) z1.release(true);
    if (z2.ok) z2.release(true);
    const [a1, a2] = [gate.enter('a'), gate.enter('a')];
    const waiting = gate.enterWaiting('a', 1000);
    if (a1.ok) a1.release(true);
    expect((await waiting).ok).toBe(true);
    // Nobody leaves: the wait runs out and the delivery is deferred as by `enter`.
    expect(await gate.enterWaiting('a', 20)).toMatchObject({ ok: false, why: 'busy' });
    // A failure since its last answer: busy is deferred at once, nothing waits on a failing target.
    const b = [gate.enter('b'), gate.enter('b')];
    const f = gate.enter('c');
    if (f.ok) f.release(false);
    const [c1, c2] = [gate.enter('c'), gate.enter('c')];
    const t0 = Date.now();
    expect(await gate.enterWaiting('c', 1000)).toMatchObject({ ok: false, why: 'busy' });
    expect(Date.now() - t0).toBeLessThan(500);
    for (const e of [a2, ...b, c1, c2]) if (e.ok) e.release(true);
  });

  describe('a target that answers fast earns more slots (issue 37)', () => {
    const adaptive = { ...settings, maxActiveCeiling: 4, fastMs: 100 };
    type Slot = Extract<ReturnType<TargetGate['enter']>, { ok: true }>;
    const take = (gate: TargetGate, n: number) => Array.from({ length: n }, () => gate.enter('t')).filter((e): e is Slot => e.ok);

    it('grows by one after `limit` fast answers while every slot was taken, up to maxActiveCeiling', () => {
      // Two slots held by drains (heldPost): each fast answer is reported, the slots stay taken.
      const gate = new TargetGate(adaptive);
      const slots = take(gate, 3);
      expect(slots).toHaveLength(2);
      slots[0]!.report(true, 5);
      expect(gate.limitOf('t')).toBe(2);
      slots[1]!.report(true, 5);
      expect(gate.limitOf('t')).toBe(3);
      expect(gate.enter('t').ok).toBe(true);
      for (let i = 0; i < 20; i++) slots[i % 2]!.report(true, 5);
      expect(gate.limitOf('t')).toBe(4);
      expect(take(gate, 2)).toHaveLength(1);
    });

    it('does not grow while slots are free (nothing wanted more)', () => {
      const gate = new TargetGate(adaptive);
      for (let i = 0; i < 10; i++) {
        const e = gate.enter('t');
        if (e.ok) e.release(true, 5);
      }
      expect(gate.limitOf('t')).toBe(2);
    });

    it('goes back to maxActive at the first failure and at the first slow answer', () => {
      for (const [success, ms] of [[false, 5], [true, 150]] as const) {
        const gate = new TargetGate(adaptive);
        const slots = take(gate, 2);
        for (let i = 0; i < 4; i++) slots[i % 2]!.report(true, 5);
        expect(gate.limitOf('t')).toBeGreaterThan(2);
        slots[0]!.report(success, ms);
        expect(gate.limitOf('t')).toBe(2);
        expect(gate.enter('t').ok).toBe(false);
      }
    });

    it('gives no slot beyond maxActive while a POST is unanswered for longer than fastMs (a receiver starting to hang)', async () => {
      const gate = new TargetGate(adaptive);
      const slots = take(gate, 2);
      for (let i = 0; i < 2; i++) slots[i % 2]!.report(true, 5);
      slots.push(...take(gate, 1));
      for (let i = 0; i < 3; i++) slots[i]!.report(true, 5);
      expect(gate.limitOf('t')).toBe(4);
      const done = slots[0]!.posting();
      expect(gate.enter('t').ok).toBe(true);
      await new Promise((r) => setTimeout(r, 150));
      expect(gate.enter('t').ok).toBe(false);
      expect(gate.limitOf('t')).toBe(2);
      done();
    });
  });

  it('keys a URL by its origin', () => {
    expect(TargetGate.keyOf('https://a.example:8443/x?y=1')).toBe('https://a.example:8443');
    expect(TargetGate.keyOf('https://a.example/hooks/1')).toBe(TargetGate.keyOf('https://a.example/hooks/2'));
  });
});
