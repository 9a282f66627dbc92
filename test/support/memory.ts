import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

// A full collection before each reading, so heap growth means memory still held, not garbage.
v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Two full collections: the second frees what finalizers of the first released. */
export function collectGarbage(): void {
  gc();
  gc();
}

/** Heap (after a full collection) and RSS of this process, where the API runs, in MB. */
export const memoryMb = () => {
  collectGarbage();
  const m = process.memoryUsage();
  return { heap: m.heapUsed / 2 ** 20, rss: m.rss / 2 ** 20 };
};

export const memoryChange = (a: ReturnType<typeof memoryMb>, b: ReturnType<typeof memoryMb>) =>
  `heap ${a.heap.toFixed(0)} -> ${b.heap.toFixed(0)} MB, rss ${a.rss.toFixed(0)} -> ${b.rss.toFixed(0)} MB`;

export interface HeapTrend {
  /** Heap after a full collection following each round, in MB (the warm-up round included). */
  readings: number[];
  /** Least-squares slope of the readings after the warm-up round, in MB per round. */
  slope: number;
  /** Growth from the end of the warm-up round to the lowest of the last two readings, in MB. */
  growth: number;
}

/**
 * Runs the same workload `rounds` times and reads the heap after a full collection each time.
 * Memory still held after a collection is what a leak is; an absolute figure (RSS, or heap before
 * and after a long fuzz) also counts allocator high-water marks, JIT code and buffers sized by how
 * busy the machine was. A leak shows as a heap that keeps rising round after round; a busy machine
 * only makes the rounds slower. The first round warms caches, pools and compiled code up.
 */
export async function heapTrend(rounds: number, round: (i: number) => Promise<void>): Promise<HeapTrend> {
  const readings: number[] = [];
  for (let i = 0; i < rounds; i++) {
    await round(i);
    readings.push(memoryMb().heap);
  }
  const ys = readings.slice(1);
  const xs = ys.map((_, i) => i);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const slope = xs.reduce((a, x, i) => a + (x - mx) * ((ys[i] as number) - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  const growth = Math.min(...readings.slice(-2)) - (readings[0] as number);
  return { readings, slope, growth };
}
