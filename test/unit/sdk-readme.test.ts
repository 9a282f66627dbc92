import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

/* The example in sdk/README.md is sdk/example.ts, which tsc checks: the two never drift apart. */
describe('sdk/README.md', () => {
  it('shows sdk/example.ts as it is', async () => {
    const readme = await readFile(new URL('../../sdk/README.md', import.meta.url), 'utf8');
    const example = await readFile(new URL('../../sdk/example.ts', import.meta.url), 'utf8');
    expect(/```ts\n([\s\S]*?)```/.exec(readme)?.[1]).toBe(example);
  });
});
