import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, stdSerializers, symbols, type DestinationStream, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/**
 * Fields that belong on every line logged while one HTTP request or one job is handled (`reqId`,
 * `requestUid`), whoever logs it: a service deep down logs through the plain process logger and
 * still gets them. Set with `withLogContext`.
 */
const logContext = new AsyncLocalStorage<Record<string, unknown>>();

export function withLogContext<T>(fields: Record<string, unknown>, fn: () => T): T {
  return logContext.run({ ...logContext.getStore(), ...fields }, fn);
}

/** Query parameters whose value is a secret: the API token and the dashboard token. */
const SECRET_PARAMS = /([?&](?:access_token|admin_token)=)[^&#]*/gi;

/** A URL as it may be logged: secret query values replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/**
 * Structured JSON logs. Tokens and door codes are redacted wherever they would appear: request
 * headers, query objects, any object logged with such a key.
 */
export function createLogger(level: string, bindings: Record<string, unknown> = {}, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { pid: process.pid, ...bindings },
    // A child logger that already binds a context key (the job handler binds requestUid) must not
    // get it twice: pino does not merge bindings with mixin fields.
    mixin(_obj: object, _level: number, logger: PinoLogger) {
      const store = logContext.getStore();
      if (!store) return {};
      const bound = (logger as unknown as Record<symbol, string>)[symbols.chindingsSym] ?? '';
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(store)) if (!bound.includes(`"${k}":`)) out[k] = v;
      return out;
    },
    serializers: {
      // Driver errors carry their client or socket (pg-pool sets err.client): kilobytes of state
      // that say nothing and could hold connection settings.
      err(e: unknown) {
        const out = stdSerializers.err(e as Error) as unknown as Record<string, unknown>;
        for (const k of ['client', 'connection', 'socket', 'pool']) delete out[k];
        return out;
      },
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.query.access_token',
        'req.query.admin_token',
        'headers.authorization',
        'query.access_token',
        'access_token',
        'admin_token',
        'token',
        'authorization',
        '*.door_access_code',
        'door_access_code',
        '*[*].door_access_code',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
