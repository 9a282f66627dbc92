import type { z } from 'zod';
import { badParam, type ErrorDetail } from '../errors.js';

function pathToParam(path: readonly PropertyKey[], prefix: string | undefined): string {
  let out = prefix ?? '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out === '' ? (prefix ?? 'body') : out;
}

/**
 * Parses input with a schema; a failure becomes one code-11 error naming the first offending
 * parameter (`days[3].min_stay`) with every issue listed in `details`.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, prefix?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details: ErrorDetail[] = result.error.issues.slice(0, 50).map((i) => ({
    path: pathToParam(i.path, prefix),
    message: i.message,
  }));
  const first = details[0] ?? { path: prefix ?? 'body', message: 'Invalid input' };
  return badParamThrow(first.path, `Invalid parameter ${first.path}: ${first.message}`, details);
}

function badParamThrow(param: string, message: string, details: ErrorDetail[]): never {
  throw badParam(param, message, details);
}
