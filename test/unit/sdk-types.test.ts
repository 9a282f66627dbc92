import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * test/types/sdk.types.ts holds the SDK's compile-time checks: each `@ts-expect-error` line makes a
 * mistake (a misspelt body or query key, a path the API lacks, a value outside an enumeration) and
 * tsc reports any such line that compiles (TS2578). `tsc --noEmit` checks it in `npm run check`;
 * this test compiles it with the same options so that `npm test` (what CI runs) proves it too.
 */
describe('SDK types', () => {
  it('refuse a wrong field name at compile time, and type every answer', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const file = fileURLToPath(new URL('../types/sdk.types.ts', import.meta.url));
    const { config } = ts.readConfigFile(`${root}tsconfig.json`, (p) => ts.sys.readFile(p)) as { config: unknown };
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
    const program = ts.createProgram([file], { ...options, noEmit: true });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file && d.start !== undefined ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
      return `${where} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  }, 120_000);
});
