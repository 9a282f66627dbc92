import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
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
 *
 * Written here rather than with pino-http (which wrote the same line): pino-http makes a child
 * logger per request with the request serialised into its bindings, which nothing here logs
 * through, and ran the standard serializers before ours; that was about 9% of the API's busy
 * samples in the messages bench.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const reqId = requestIdOf(req, res);
    (req as { id?: string }).id = reqId;
    const url = req.url;
    if (!QUIET_PATHS.has(url.split('?')[0] ?? '')) {
      const start = Date.now();
      // Once, at the answer's end or at the connection's close before it (the client went away).
      const answered = () => {
        res.off('finish', answered);
        res.off('close', answered);
        const statusCode = res.statusCode;
        const line = {
          req: { method: req.method, url: redactUrl(url), remoteAddress: req.socket.remoteAddress },
          res: { statusCode },
          responseTime: Date.now() - start,
          reqId,
          ...errorCodeOf(res),
        };
        const msg = `${req.method} ${statusCode}`;
        if (statusCode >= 500) logger.error({ ...line, err: new Error(`failed with status code ${statusCode}`) }, msg);
        else logger.info(line, msg);
      };
      res.on('finish', answered);
      res.on('close', answered);
    }
    withLogContext({ reqId }, next);
  };
}

function errorCodeOf(res: ServerResponse): { errorCode?: number } {
  const code = (res as unknown as { locals?: { errorCode?: number } }).locals?.errorCode;
  return code === undefined ? {} : { errorCode: code };
}
