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

/**
 * Names of query parameters whose value is a secret (the API token, the dashboard token), compared
 * after normalising: lowercase, letters and digits only, so `Access-Token` and `access.token` count.
 */
const SECRET_NAMES = new Set(['accesstoken', 'admintoken', 'token', 'apikey', 'authorization', 'clientsecret', 'code', 'codeverifier', 'password']);

/** Percent-decodes repeatedly (a doubly encoded name), tolerating malformed escapes. */
function decodeName(raw: string): string {
  let s = raw.replace(/\+/g, ' ');
  for (let i = 0; i < 4; i++) {
    let next: string;
    try {
      next = decodeURIComponent(s);
    } catch {
      next = s.replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    }
    if (next === s) break;
    s = next;
  }
  return s;
}

/**
 * True when a query key, as any query parser could read it, names a secret: `access%5Ftoken`,
 * `%61ccess_token`, `ACCESS_TOKEN`, `access_token[]`, `access_token[0]`, `x[access_token]`.
 */
export function isSecretParam(rawKey: string): boolean {
  const name = decodeName(rawKey).toLowerCase();
  // Every bracketed part and the base name are candidates (array and object forms).
  return name.split(/[[\]]/).some((part) => SECRET_NAMES.has(part.replace(/[^a-z0-9]/g, '')));
}

/**
 * A URL as it may be logged: the value of every query parameter whose decoded name is a secret is
 * replaced. Works on the parsed pairs, not on the raw text, so no spelling of the name slips by.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const pairs = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    // A parser that also splits on `;` would read `x=1;access_token=T` as two pairs: redact it too.
    const secret = isSecretParam(key) || part.split(';').slice(1).some((sub) => isSecretParam(sub.split('=')[0] ?? ''));
    return secret ? `${key}=[redacted]` : part;
  });
  return `${url.slice(0, q + 1)}${pairs.join('&')}`;
}

/** Buffered stdout: lines are written once this many bytes wait, and at the latest every LOG_FLUSH_MS. */
export const LOG_BUFFER_BYTES = 4096;
export const LOG_FLUSH_MS = 100;

/**
 * A process's stdout as its log destination. Buffered by default (issue 37), as pino's docs advise
 * for throughput: lines go out together once LOG_BUFFER_BYTES wait (five to eight request lines),
 * and whatever waits is written every LOG_FLUSH_MS, off the event loop. The profile of the pipeline
 * bench put a synchronous write per line (the API's request line, the worker's line per job) at
 * 8-11% of each process's samples; written as soon as the previous write was done, the writes
 * were still 6-7% of the API's and the worker's busy time in the calendar and messages benches
 * (each a thread-pool job and a wake-up of the reader of the pipe). At a normal exit (SIGTERM
 * included) pino flushes what is left; a process killed with SIGKILL loses the lines of its last
 * LOG_FLUSH_MS, which `sync` (LOG_SYNC=true) avoids at that cost. Lines someone waits for (the API
 * listening, the worker started) are written at once: flushLog.
 */
export function stdoutLog(sync: boolean): DestinationStream {
  return sync ? pino.destination({ dest: 1, sync }) : pino.destination({ dest: 1, sync, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS });
}

/** Writes the lines buffered so far now (a no-op for a destination that does not buffer). */
export function flushLog(logger: Logger): void {
  try {
    logger.flush();
  } catch {
    // A destination already closed (the process is exiting): nothing left to write to.
  }
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
