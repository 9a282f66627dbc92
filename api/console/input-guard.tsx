import type { RequestHandler } from 'express';
import type { AppContext } from '../../shared/app/context.js';
import { formInputProblem, hasMalformedEscape } from '../../shared/infra/http/form-input.js';
import { isUnstorable } from '../../shared/infra/http/validation.js';
import { MessagePage } from './layout.js';
import { render } from './render.js';

/*
 * The console's (and the OAuth pages') first reading of a request (issue 39 M1): the raw path and
 * query, then the parsed body, by shared/infra/http/form-input.ts. What cannot be read is a 400
 * page naming why, logged at info (a client's mistake or a probe, never ours), before any page,
 * session or database sees it.
 */

/** Why the request line cannot be read, or undefined. */
export function requestLineProblem(originalUrl: string, query: unknown): string | undefined {
  const q = originalUrl.indexOf('?');
  const [path, search] = q < 0 ? [originalUrl, ''] : [originalUrl.slice(0, q), originalUrl.slice(q + 1)];
  if (hasMalformedEscape(path) || hasMalformedEscape(search)) return 'the address holds a malformed % escape';
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return 'the address holds a malformed % escape';
  }
  if (isUnstorable(decoded)) return 'the address holds a character that cannot be stored (NUL)';
  return formInputProblem(query);
}

async function refuse(ctx: AppContext, res: Parameters<RequestHandler>[1], path: string, why: string): Promise<void> {
  ctx.logger.info({ event: 'console input refused', path: path.slice(0, 200), why }, 'console input refused');
  await render(res, <MessagePage ctx={{ user: undefined, csrf: '', path: '/app/' }} title="The request could not be read" message={`The request could not be read: ${why}.`} />, 400);
}

/** Path and query, before anything else (the static files included). */
export function readRequestLine(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const why = requestLineProblem(req.originalUrl, req.query);
    if (why === undefined) return next();
    await refuse(ctx, res, req.path, why);
  };
}

/** The parsed body (a form or JSON), once the parsers ran. */
export function readBody(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const why = formInputProblem(req.body);
    if (why === undefined) return next();
    await refuse(ctx, res, req.path, why);
  };
}

/** body-parser's `verify` for form bodies: a malformed % escape in the raw body is a 400. */
export function verifyFormEscapes(_req: unknown, _res: unknown, buf: Buffer): void {
  if (buf.includes(0x25) && hasMalformedEscape(buf.toString('latin1'))) {
    throw Object.assign(new Error('the form holds a malformed % escape'), { status: 400, expose: true, type: 'entity.parse.failed' });
  }
}
