import { Presets, SingleBar } from 'cli-progress';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { CommandError, requireCompany, UsageError, type Command } from '../commands.js';

/*
 * `import` and `export`: a company's objects as JSON lines (one object per line, `{"kind": ...,
 * ...wire fields}`). The command line only: the format, the reads and the writes are the domain's
 * (shared/domain/transfer, through services.transfer).
 */

function required(v: Record<string, string | undefined>, key: string): string {
  const value = v[key]?.trim();
  if (!value) throw new UsageError(`--${key} must not be empty`);
  return value;
}

/** At most this many refusals are printed one by one; the count is always printed. */
const SHOWN_REFUSALS = 200;

export const transferCommands: Record<string, Command> = {
  import: {
    usage: 'import <FILE.jsonl | - for stdin> --company <uid>',
    options: { company: { required: true }, file: { required: true } },
    positional: 'file',
    prepare(v) {
      const [company, file] = [required(v, 'company'), required(v, 'file')];
      return async ({ services }, io) => {
        await requireCompany(services, company);
        const input = file === '-' ? process.stdin : createReadStream(file);
        const opened = file === '-' ? Promise.resolve() : once(input, 'open');
        await opened.catch((err: Error) => {
          throw new CommandError(`cannot read ${file}: ${err.message}`);
        });
        const bar = new SingleBar(
          { stream: process.stderr, format: 'Importing [{bar}] {percentage}% | {value}/{total} objects | {duration}s', hideCursor: true },
          Presets.shades_classic,
        );
        const started = performance.now();
        let barStarted = false;
        const result = await services.transfer.import(company, createInterface({ input, crlfDelay: Infinity }), (done, total) => {
          if (!barStarted) {
            bar.start(total, 0);
            barStarted = true;
          }
          bar.update(done);
        }).finally(() => barStarted && bar.stop());
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        for (const r of result.refused.slice(0, SHOWN_REFUSALS)) io.note(`line ${r.line}: refused: ${r.reason}`);
        if (result.refused.length > SHOWN_REFUSALS) io.note(`... and ${result.refused.length - SHOWN_REFUSALS} more refused lines`);
        const counts = Object.entries(result.written).map(([k, n]) => `${n} ${k}`).join(', ');
        io.note(`Imported into ${company} in ${seconds} s: ${counts}; ${result.refused.length} lines refused.`);
        io.result(String(Object.values(result.written).reduce((a, b) => a + b, 0)));
        if (result.refused.length > 0) throw new CommandError(`${result.refused.length} lines refused (the rest was imported)`);
      };
    },
  },

  export: {
    usage: 'export --company <uid> [--file <FILE.jsonl>, default stdout]',
    options: { company: { required: true }, file: {} },
    prepare(v) {
      const company = required(v, 'company');
      const file = v.file?.trim();
      return async ({ services }, io) => {
        await requireCompany(services, company);
        const out = file ? createWriteStream(file) : process.stdout;
        let n = 0;
        for await (const line of services.transfer.export(company)) {
          n++;
          if (!out.write(`${line}\n`)) await once(out, 'drain');
        }
        if (file) {
          out.end();
          await once(out, 'finish');
        }
        io.note(`Exported ${n} lines of company ${company}${file ? ` to ${file}` : ''}.`);
      };
    },
  },
};
