import { z } from 'zod';

/*
 * Optimistic concurrency on the wire (RFC 9110 If-Match / ETag), for objects that carry an integer
 * `version`. The entity tag of version 3 is `"3"`: strong, quoted, nothing else. Decided here:
 * If-Match is `*` (any stored version) or one or more such tags separated by commas (any of them
 * matches); anything else, a weak tag (`W/"3"`, which strong comparison never matches) or a bare
 * `3` included, is a malformed header (400) rather than a silent mismatch.
 */

export type IfMatch = { any: true } | { any: false; versions: readonly number[] };

const TAG_RE = /^"([1-9]\d{0,15})"$/;

export const etagOf = (version: number) => `"${version}"`;

/** Whether the stored version satisfies the header; no header always does. */
export function matchesVersion(ifMatch: IfMatch | undefined, version: number): boolean {
  return ifMatch === undefined || ifMatch.any || ifMatch.versions.includes(version);
}

/** The If-Match request header, optional: `*` or `"<version>"[, "<version>"...]`. */
export const ifMatchHeader = z
  .string()
  .optional()
  .transform((raw, ctx): IfMatch | undefined => {
    if (raw === undefined) return undefined;
    if (raw.trim() === '*') return { any: true };
    const versions: number[] = [];
    for (const part of raw.split(',')) {
      const m = TAG_RE.exec(part.trim());
      if (!m) {
        ctx.addIssue({ code: 'custom', message: 'must be * or "<version>" (a quoted positive integer, as the ETag header gives it)' });
        return z.NEVER;
      }
      versions.push(Number(m[1]));
    }
    return { any: false, versions };
  });
