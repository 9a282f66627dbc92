import type { ErrorRequestHandler, RequestHandler } from 'express';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../shared/infra/logger.js';
import { AppError, ErrorCode, unavailable } from '../../shared/infra/errors.js';
import { errorStatus } from './error-mode.js';
import { isDatabaseUnavailable } from '../../shared/infra/db/unavailable.js';

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError(ErrorCode.badParam, `Unknown method ${req.method} ${req.path}`, { status: 404, param: 'path' }));
};

/** Maps anything thrown to the wire envelope. Internals are logged, never sent. */
export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  const e = err as { type?: unknown; status?: unknown; expose?: unknown } | null;
  if (e?.type === 'entity.parse.failed') return new AppError(ErrorCode.badParam, 'Malformed JSON body', { param: 'body' });
  if (e?.type === 'entity.too.large') return new AppError(ErrorCode.badParam, 'Request body too large', { status: 413, param: 'body' });
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
    return new AppError(ErrorCode.badParam, 'Unsupported body encoding', { status: 415, param: 'body' });
  if (e?.type === 'request.aborted') return new AppError(ErrorCode.badParam, 'Request aborted', { param: 'body' });
  // Any other client error of the body parser (a Content-Length that does not match the body, too
  // many parameters...): its message is written for clients (`expose`), its status kept.
  if (typeof e?.type === 'string' && e.expose === true && typeof e.status === 'number' && e.status >= 400 && e.status < 500)
    return new AppError(ErrorCode.badParam, err instanceof Error ? err.message : 'Bad request body', { status: e.status, param: 'body' });
  // The same without a `type`: a body that does not inflate under its Content-Encoding (gzip,
  // deflate, br) arrives as a zlib error with only status 400 and `expose`. zlib's message is not
  // passed on.
  if (e?.expose === true && typeof e.status === 'number' && e.status >= 400 && e.status < 500)
    return new AppError(ErrorCode.badParam, 'Malformed request body', { status: e.status, param: 'body' });
  // A path segment that does not decode (`%zz`, an encoded lone surrogate `%ED%A0%80`): the router's
  // URIError, status 400. The client's mistake, named as such (never a 500 with a stack).
  if (err instanceof URIError) return new AppError(ErrorCode.badParam, 'Malformed percent-encoding in the path', { param: 'path' });
  if (isDatabaseUnavailable(err)) return unavailable();
  return undefined;
}

/**
 * `always200` (ERROR_HTTP_STATUS=always-200): the status line says 200 whatever the error, body and
 * headers unchanged, for clients written against iGMS, which answers its errors that way. An app's
 * own error mode, once its token is known, wins (error-mode.ts).
 */
export function errorHandler(logger: Logger, opts: { always200?: boolean } = {}): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    let appErr = toAppError(err);
    if (!appErr) {
      logger.error({ err, method: req.method, path: req.path }, 'unhandled error');
      appErr = new AppError(ErrorCode.internal, 'Internal error');
    } else if (appErr.code === ErrorCode.unavailable) {
      logger.warn({ err, path: req.path }, 'dependency unavailable');
    }
    res.locals.errorCode = appErr.code;
    // Too late for an envelope: Express' final handler closes the half-sent response.
    if (res.headersSent) {
      next(err);
      return;
    }
    for (const [k, v] of Object.entries(appErr.headers)) res.setHeader(k, v);
    res.status(errorStatus(res, appErr.status, opts.always200 === true)).json(appErr.toBody());
  };
}

/**
 * Requests Node's HTTP parser refuses before Express sees them (headers or URL over 16 KB, a
 * malformed request line or header). Node would answer a bare 431/400 without a body; this writes
 * the same status with the wire envelope. Attach to the server's `clientError` event.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request line and headers too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timed out']
        : [400, 'Malformed HTTP request'];
  const body = JSON.stringify(new AppError(ErrorCode.badParam, message, { status, param: 'request' }).toBody());
  // Then closed for good once written: ending only our half would leave a client that keeps sending
  // (a slowloris trickle) holding the socket.
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
