import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/** Structured JSON logs. Tokens and door codes are redacted wherever they would appear. */
export function createLogger(level: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level,
    base: { pid: process.pid, ...bindings },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.query.access_token',
        'access_token',
        'token',
        '*.door_access_code',
        'door_access_code',
      ],
      censor: '[redacted]',
    },
  });
}
