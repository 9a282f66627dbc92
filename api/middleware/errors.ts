import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../../shared/logger.js';
import { AppError, ErrorCode, unavailable } from '../../shared/errors.js';

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new AppError(ErrorCode.badParam, `Unknown method ${req.method} ${req.path}`, { status: 404, param: 'path' }));
};

const PG_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECT_TIMEOUT', 'CONNECTION_DESTROYED', '57P01', '57P02', '57P03', '53300']);

function errorCodeOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; cause?: unknown };
  if (typeof e.code === 'string') return e.code;
  return errorCodeOf(e.cause);
}

/** Maps anything thrown to the wire envelope. Internals are logged, never sent. */
export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; status?: number } | null;
  if (e?.type === 'entity.parse.failed') return new AppError(ErrorCode.badParam, 'Malformed JSON body', { param: 'body' });
  if (e?.type === 'entity.too.large') return new AppError(ErrorCode.badParam, 'Request body too large', { status: 413, param: 'body' });
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
    return new AppError(ErrorCode.badParam, 'Unsupported body encoding', { status: 415, param: 'body' });
  if (e?.type === 'request.aborted') return new AppError(ErrorCode.badParam, 'Request aborted', { param: 'body' });
  const code = errorCodeOf(err);
  if (code && PG_UNAVAILABLE.has(code)) return unavailable();
  return undefined;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    let appErr = toAppError(err);
    if (!appErr) {
      logger.error({ err, method: req.method, path: req.path }, 'unhandled error');
      appErr = new AppError(ErrorCode.internal, 'Internal error');
    } else if (appErr.code === ErrorCode.unavailable) {
      logger.warn({ err, path: req.path }, 'dependency unavailable');
    }
    res.locals.errorCode = appErr.code;
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(appErr.headers)) res.setHeader(k, v);
    res.status(appErr.status).json(appErr.toBody());
  };
}
