import { z } from 'zod';
import { isUnstorable } from './validation.js';

/*
 * What a browser or an OAuth client may send the console, the OAuth pages and /auth/token (issue 39
 * M1: a NUL byte made 13 of their inputs answer 500). One schema reads every value of the query and
 * the body (names too) before a page sees it: text Postgres can store (no NUL, no lone surrogate),
 * as a string, a list of them (a repeated field) or, from a JSON body, objects of them. Malformed
 * percent escapes (`%zz`, or bytes that are no UTF-8 such as `%ED%A0%80`) are refused in the raw
 * path, query and form body, where they can still be told from a well-escaped `%25zz`.
 */

const storableText = z.string().refine((s) => !isUnstorable(s), 'holds a character that cannot be stored (NUL or a lone surrogate)');

type Input = string | Input[] | { [key: string]: Input } | number | boolean | null;
export const formInputSchema: z.ZodType<Input> = z.lazy(() =>
  z.union([storableText, z.number(), z.boolean(), z.null(), z.array(formInputSchema), z.record(storableText, formInputSchema)]),
);

/** Why a query or body cannot be read, or undefined when every value of it can. */
export function formInputProblem(input: unknown): string | undefined {
  const r = formInputSchema.safeParse(input ?? {});
  if (r.success) return undefined;
  const issue = r.error.issues[0];
  const where = issue?.path.length ? issue.path.map(String).join('.') : 'a field';
  return `${where.slice(0, 60)} ${issue?.code === 'invalid_union' ? 'holds a character that cannot be stored (NUL or a lone surrogate)' : (issue?.message ?? 'cannot be read')}`;
}

/** True when some `%` escape of the text does not decode (not two hex digits, or no UTF-8). */
export function hasMalformedEscape(text: string): boolean {
  if (!text.includes('%')) return false;
  for (const part of text.split(/[&=/;?]/)) {
    if (!part.includes('%')) continue;
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return true;
    }
  }
  return false;
}
