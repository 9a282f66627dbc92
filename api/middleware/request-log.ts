import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import { redactUrl, withLogContext, type Logger } from '../../shared/infra/logger.js';

/** A client's own request id is kept when it is short and plain; anything else is replaced. */
const CLIENT_ID = /^[\w.:@/+=-]{1,128}$/;

function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && CLIENT_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** Probes and scrapes would drown the request log; their failures still show in metrics. */
const QUIET_PATHS = new Set(['/livez', '/readyz', '/metrics']);

/**
 * One JSON line per answered request (method, URL with secrets redacted, status, time, reqId), and
 * the request id on every other line logged while the request is handled, whoever logs it. The id
 * comes from `X-Request-Id` or is generated, and is echoed back in that header.
 */
export function requestLogging(logger: Logger): RequestHandler[] {
  const httpLogger = pinoHttp({
    logger,
    genReqId: requestIdOf,
    autoLogging: { ignore: (req) => QUIET_PATHS.has((req.url ?? '').split('?')[0] ?? '') },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (req, res) => `${req.method} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${res.statusCode}`,
    // reqId at the top level, like every other line of the request; errorCode is the wire code.
    customSuccessObject: (req, res, val: object) => ({ ...val, reqId: req.id, ...errorCodeOf(res) }),
    customErrorObject: (req, res, _err, val: object) => ({ ...val, reqId: req.id, ...errorCodeOf(res) }),
    serializers: {
      // Only what an operator needs; never headers (Authorization) nor a raw query (access_token).
      req: (req: { method: string; url: string; remoteAddress?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
  const context: RequestHandler = (req, _res, next) => withLogContext({ reqId: req.id }, next);
  return [httpLogger, context];
}

function errorCodeOf(res: ServerResponse): { errorCode?: number } {
  const code = (res as unknown as { locals?: { errorCode?: number } }).locals?.errorCode;
  return code === undefined ? {} : { errorCode: code };
}
