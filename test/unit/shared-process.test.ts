import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/*
 * The suite's files run one after another in one process (vitest.config.ts, `isolate: false`), so a
 * file must leave the process as it found it: no module mocks (they would stay for the files
 * after), no changed environment (the services a test starts take their settings from the test's
 * `env`, never process.env), no fake timers left running.
 */
const LEAKS: Array<[RegExp, string]> = [
  [/\bvi\.(mock|doMock|stubEnv|stubGlobal)\(/, 'module mock or stub'],
  [/process\.env(\.[A-Za-z_]\w*|\[[^\]]+\])\s*=(?!=)/, 'process.env assigned'],
  [/delete\s+process\.env/, 'process.env entry deleted'],
  [/Object\.assign\(\s*process\.env/, 'process.env assigned'],
];

describe('test files sharing one process', () => {
  it('mock no module and change no environment; fake timers are given back in the same file', () => {
    const files = execFileSync('git', ['ls-files', 'test/*.ts', 'test/**/*.ts'], { encoding: 'utf8' }).split('\n').filter((f) => f && f !== 'test/unit/shared-process.test.ts');
    expect(files.length).toBeGreaterThan(150);
    const found: string[] = [];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      for (const [pattern, what] of LEAKS) if (pattern.test(text)) found.push(`${f}: ${what}`);
      if (text.includes('vi.useFakeTimers(') && !text.includes('vi.useRealTimers(')) found.push(`${f}: fake timers never given back`);
    }
    expect(found).toEqual([]);
  });
});
