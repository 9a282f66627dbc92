import { describe, expect, it } from 'vitest';
import { groupCommit } from '../../shared/infra/db/group-commit.js';

/*
 * The worker's group commit of sent messages: a uid asked for while nothing is in flight runs at
 * once, alone; those asked for meanwhile go together in the next run, as soon as it ends.
 */

function recorder(fail?: (keys: string[]) => boolean) {
  const runs: string[][] = [];
  const gates: Array<() => void> = [];
  const run = (keys: string[]) => {
    runs.push(keys);
    return new Promise<ReadonlySet<string>>((resolve, reject) => {
      gates.push(() => (fail?.(keys) ? reject(new Error('database away')) : resolve(new Set(keys.filter((k) => k !== 'final')))));
    });
  };
  return { runs, open: () => gates.shift()?.(), run };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('groupCommit', () => {
  it('runs the first at once, alone, and those asked meanwhile together next', async () => {
    const r = recorder();
    const mark = groupCommit(r.run);
    const first = mark('a');
    expect(r.runs).toEqual([['a']]);
    const rest = ['b', 'c', 'final'].map((k) => mark(k));
    await tick();
    expect(r.runs).toEqual([['a']]);
    r.open();
    await expect(first).resolves.toBe(true);
    expect(r.runs).toEqual([['a'], ['b', 'c', 'final']]);
    r.open();
    await expect(Promise.all(rest)).resolves.toEqual([true, true, false]);
  });

  it('bounds a run by max, the rest in the next one', async () => {
    const r = recorder();
    const mark = groupCommit(r.run, 2);
    const all = ['a', 'b', 'c', 'd', 'e'].map((k) => mark(k));
    for (let i = 0; i < 3; i++) {
      r.open();
      await tick();
    }
    await Promise.all(all);
    expect(r.runs).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
  });

  it('fails every caller of a failed run, and runs the next one after it', async () => {
    const r = recorder((keys) => keys.includes('b'));
    const mark = groupCommit(r.run);
    const a = mark('a');
    const [b, c] = [mark('b'), mark('c')];
    const d = (async () => {
      await tick();
      return mark('d');
    })();
    r.open();
    await a;
    await tick();
    r.open();
    await expect(b).rejects.toThrow('database away');
    await expect(c).rejects.toThrow('database away');
    r.open();
    await expect(d).resolves.toBe(true);
  });
});
