import { errorModes, isErrorMode, type ErrorMode } from '../../shared/domain/auth/index.js';
import { CommandError, nonEmpty, UsageError, type Command, type Values } from './commands.js';

/* An app's settings (docs/api.md "Error answers per app"). */

/** `--error-mode http|igms` (`default`: none of its own, so ERROR_HTTP_STATUS or its client's). */
export function errorModeOption(v: Values, allowDefault: boolean): ErrorMode | null | undefined {
  const text = v['error-mode']?.trim();
  if (text === undefined) return undefined;
  if (allowDefault && text === 'default') return null;
  if (!isErrorMode(text)) throw new UsageError(`--error-mode must be one of: ${[...errorModes, ...(allowDefault ? ['default'] : [])].join(', ')}, got "${text}"`);
  return text;
}

export const appCommands: Record<string, Command> = {
  'app set': {
    usage: 'app set --company <uid> --app <app uid> --error-mode http|igms|default',
    options: { company: { required: true }, app: { required: true }, 'error-mode': { required: true } },
    prepare(v) {
      const [company, app] = [nonEmpty(v, 'company'), nonEmpty(v, 'app')];
      const mode = errorModeOption(v, true) ?? null;
      return async ({ services }, io) => {
        if (!(await services.tokens.setAppErrorMode(company, app, mode))) throw new CommandError(`unknown app ${app} in company ${company}`);
        io.result(`error mode: ${mode ?? 'default'}`);
        io.note('Tokens already in use may keep the previous mode for up to a minute on each API process.');
      };
    },
  },
};
