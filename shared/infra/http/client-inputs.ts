import { z } from 'zod';

/*
 * Inputs as iGMS clients send them (docs/api.md, "Inputs as iGMS clients send them"): the loose
 * spellings real clients use, read here so every method reads them the same way.
 */

/**
 * An ISO offset whose `+` arrived as a space: a client that writes `2024-05-15T00:00:00+02:00` into
 * a query string unencoded sends a `+`, which form decoding turns into a space. Only a space right
 * before an offset's digits after an ISO time is restored; nothing else changes.
 */
const PLUS_AS_SPACE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?) (\d{2}(?::?\d{2})?)$/;

export function restoredPlus(s: string): string {
  const m = PLUS_AS_SPACE.exec(s);
  return m ? `${m[1]}+${m[2]}` : s;
}

const TRUE_WORDS = new Set(['true', '1']);
const FALSE_WORDS = new Set(['false', '0']);

/**
 * A boolean as clients send one: `true`/`false`, `1`/`0`, or the strings `"true"`, `"false"`,
 * `"1"`, `"0"` (any case). Anything else is undefined (the caller's error or warning).
 */
export function readFlag(v: unknown): boolean | undefined {
  if (v === true || v === 1) return true;
  if (v === false || v === 0) return false;
  if (typeof v !== 'string') return undefined;
  const s = v.toLowerCase();
  return TRUE_WORDS.has(s) ? true : FALSE_WORDS.has(s) ? false : undefined;
}

/** A body boolean read by readFlag; `message` names what else is refused. */
export const flag = (message = 'must be true, false, 1 or 0 (also as strings)') =>
  z
    .union([z.boolean(), z.literal(0), z.literal(1), z.string()], { error: message })
    .transform((v, ctx): boolean => {
      const b = readFlag(v);
      if (b !== undefined) return b;
      // Stryker disable next-line StringLiteral: zod's issue kind; only path and message reach the wire
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    });

/** The canonical spelling of `s` among `values`, matched case-insensitively (undefined when none). */
export function canonicalOf<T extends string>(values: readonly T[], s: string): T | undefined {
  const lower = s.toLowerCase();
  return values.find((v) => v.toLowerCase() === lower);
}
