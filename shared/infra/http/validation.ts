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
 * Text Postgres cannot store: NUL (refused in `text` and `jsonb`) and a UTF-16 surrogate without
 * its pair (JSON may carry one as `\ud800`; `jsonb` refuses it and `text` would silently turn it
 * into U+FFFD). Found after parsing, so a bad value is a code-11 answer instead of a 500 from the
 * database, and unknown keys, which are ignored, are never looked at.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Cheap first look: most strings hold neither a NUL nor any surrogate at all. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const SUSPECT = /[\u0000\ud800-\udfff]/;

export function isUnstorable(s: string): boolean {
  return SUSPECT.test(s) && (s.includes('\u0000') || LONE_SURROGATE.test(s));
}

/**
 * Lists whose every string was already judged storable by the code that made them (a batch's days:
 * dates and currencies read by char code, notes by `isUnstorable`); the walk below skips them.
 */
const judgedLists = new WeakSet<readonly unknown[]>();

/** Marks a list made only of strings already judged storable (see judgedLists); returns it. */
export function textJudged<T extends readonly unknown[]>(list: T): T {
  judgedLists.add(list);
  return list;
}

/** Walks a parsed value without allocating; runs on every accepted body, so it stays lean. */
export function hasUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return isUnstorable(value);
  // Fast paths: for-in over a primitive or null visits nothing, and over an array its indices,
  // so without them the answer is the same, only slower.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: see above
  if (typeof value !== 'object' || value === null) return false;
  // Stryker disable next-line ConditionalExpression,BlockStatement: see above
  if (Array.isArray(value)) {
    if (judgedLists.has(value)) return false;
    for (const v of value) if (hasUnstorableText(v)) return true;
    return false;
  }
  for (const k in value) if (hasUnstorableText((value as Record<string, unknown>)[k])) return true;
  return false;
}

/**
 * The path of the first unstorable string of a parsed value. Where the input was one string that
 * parsing turned into a list (`task_uids=a,b`), the parameter itself is named, not a position in it.
 */
function findUnstorableText(output: unknown, input: unknown, path: PropertyKey[]): PropertyKey[] | undefined {
  if (typeof output === 'string' || typeof input === 'string') return hasUnstorableText(output) ? path : undefined;
  if (typeof output !== 'object' || output === null) return undefined;
  const source = typeof input === 'object' && input !== null ? (input as Record<PropertyKey, unknown>) : {};
  for (const [k, v] of Object.entries(output)) {
    const key: PropertyKey = Array.isArray(output) ? Number(k) : k;
    const found = findUnstorableText(v, source[key], [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * Parses input with a schema; a failure becomes one code-11 error naming the first offending
 * parameter (`days[3].min_stay`) with every issue listed in `details`.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, prefix?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) {
    const bad = hasUnstorableText(result.data) ? findUnstorableText(result.data, input, []) : undefined;
    if (bad) {
      const param = pathToParam(bad, prefix);
      const message = 'must be valid Unicode text without NUL characters';
      throw badParam(param, `Invalid parameter ${param}: ${message}`, [{ path: param, message }]);
    }
    return result.data;
  }
  const details: ErrorDetail[] = result.error.issues.slice(0, 50).map((i) => ({
    path: pathToParam(i.path, prefix),
    message: i.message,
  }));
  // Stryker disable next-line all: zod never fails a parse without an issue; the fallback only satisfies the types
  const first = details[0] ?? { path: prefix ?? 'body', message: 'Invalid input' };
  throw badParam(first.path, `Invalid parameter ${first.path}: ${first.message}`, details);
}
