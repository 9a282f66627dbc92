import { createLogger, type Logger } from '../../shared/infra/logger.js';

/** Helpers of the operations tests: read Prometheus text, capture JSON log lines. */

/** The value of one sample (`name{labels} value`), or undefined when absent. Labels must all match. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/** Every value a label takes across the samples of metrics whose name starts with `prefix`. */
export function labelValues(text: string, prefix: string, label: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    const m = new RegExp(`[{,]${label}="((?:[^"\\\\]|\\\\.)*)"`).exec(line);
    if (m?.[1] !== undefined) out.add(m[1]);
  }
  return out;
}

export interface CapturedLogs {
  logger: Logger;
  /** Every line written so far, raw. */
  raw(): string;
  /** Every line written so far, parsed. */
  lines(): Array<Record<string, any>>;
  count(): number;
}

/** A real logger (the process one, with its redaction) writing into memory. */
export function captureLogs(level = 'trace'): CapturedLogs {
  const written: string[] = [];
  const logger = createLogger(level, { proc: 'test' }, { write: (s: string) => void written.push(s) });
  return {
    logger,
    raw: () => written.join(''),
    lines: () => written.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>),
    count: () => written.length,
  };
}

export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
