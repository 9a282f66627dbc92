import type { IncomingMessage } from 'node:http';
import type { AppContext } from '../shared/app/context.js';
import { BaseService } from '../shared/domain/service.js';
import type { Logger } from '../shared/infra/logger.js';
import { requestLogger } from './middleware/request-log.js';

/** A service as seen by one request: the same object, only its `logger` is the request's. */
function withLogger<T extends object>(service: T, log: () => Logger): T {
  // No set trap: a write (`this.x = ...` in a method) lands on the service itself, as it would.
  return new Proxy(service, { get: (target, key, receiver) => (key === 'logger' ? log() : Reflect.get(target, key, receiver)) });
}

/**
 * The context a handler gets for one request: the runtime's, with `logger` and every service's
 * `logger` binding the request id (requestLogger, made only when something logs). This is how a
 * line a service logs while handling the request carries its `reqId` without an AsyncLocalStorage
 * (request-log.ts says why). A service another service calls keeps the process logger.
 */
export function requestContext(ctx: AppContext, req: IncomingMessage): AppContext {
  const log = () => requestLogger(req, ctx.logger);
  const views = new Map<PropertyKey, unknown>();
  const services = new Proxy(ctx.services, {
    get(target, key, receiver) {
      if (views.has(key)) return views.get(key);
      const value: unknown = Reflect.get(target, key, receiver);
      const view = value instanceof BaseService ? withLogger(value, log) : value;
      views.set(key, view);
      return view;
    },
  });
  return {
    ...ctx,
    services,
    get logger() {
      return log();
    },
  };
}
