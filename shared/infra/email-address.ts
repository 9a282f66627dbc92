import { z } from 'zod';

/*
 * The one rule for an e-mail address we store (issue 39 L5: a guest address with a CRLF in it
 * became a recipient at another domain). zod's own `z.email()` (zod 4: a practical pattern, ASCII
 * local part and a dotted domain, no quoted local parts, no IP literals, no whitespace), at most 254
 * characters (RFC 5321's path limit), and no control character at all: a CR or LF would let an
 * address split a header line, a NUL would not reach Postgres. Chosen over a second library
 * (email-addresses parses RFC 5322 groups and comments we do not want stored): zod is already the
 * wire's validator and is well kept.
 */

export const EMAIL_MAX = 254;

const strict = z.email();

/** Why `text` is not an address we store, or undefined when it is one. */
export function emailAddressProblem(text: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) return 'must not contain control characters (CR, LF, NUL...)';
  if (text.length > EMAIL_MAX) return `must be at most ${EMAIL_MAX} characters`;
  if (!strict.safeParse(text).success) return 'must be an email address (name@domain.example)';
  return undefined;
}

export const isEmailAddress = (text: string): boolean => emailAddressProblem(text) === undefined;

/** A string that is an address we store (the message says why not). */
export const emailAddressSchema = z.string({ error: 'must be a string' }).superRefine((v, ctx) => {
  const problem = emailAddressProblem(v);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});
