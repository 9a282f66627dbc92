import { conflict, type AppError } from '../../infra/errors.js';
import { refusing, type StayViolation } from '../calendar/index.js';

/**
 * A stay's refusal as book-property answers it (docs/api.md): 409 code 11, `param` the first
 * offending parameter, the first broken rule's message (it names the rule and the date), and every
 * broken rule in `details`. Undefined when nothing refuses the stay (the quote's price rules never do).
 */
export function stayRefusal(violations: readonly StayViolation[]): AppError | undefined {
  const refused = refusing(violations);
  const first = refused[0];
  if (!first) return undefined;
  return conflict(
    first.param,
    first.message,
    refused.map((v) => ({ path: v.param, message: v.message, rule: v.rule, date: v.date })),
  );
}
