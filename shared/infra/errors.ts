/**
 * The error model of the wire contract: one class with an iGMS error code, one table from code to
 * HTTP status. Expected outcomes (a skipped day) are values, not exceptions.
 */
export const ErrorCode = {
  internal: 0,
  badParam: 11,
  unauthorized: 12,
  appDisabled: 13,
  missingScope: 14,
  unavailable: 15,
  rateLimited: 16,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const defaultStatus: Record<ErrorCode, number> = {
  0: 500,
  11: 400,
  12: 401,
  13: 403,
  14: 403,
  15: 503,
  16: 429,
};

export interface ErrorDetail {
  path: string;
  message: string;
  /** A refused stay (409 of book-property): the broken rule and the date it is of. */
  rule?: string;
  date?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | undefined;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;
  /** The object as stored, sent back with a failed precondition (412) so the client need not read it again. */
  readonly current: unknown;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { status?: number; param?: string; details?: ErrorDetail[]; headers?: Record<string, string>; current?: unknown } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = opts.status ?? defaultStatus[code];
    this.param = opts.param;
    this.details = opts.details;
    this.headers = opts.headers ?? {};
    this.current = opts.current;
  }

  toBody(): { error: { code: number; message: string; param?: string; details?: ErrorDetail[]; current?: unknown } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.param !== undefined ? { param: this.param } : {}),
        ...(this.details !== undefined ? { details: this.details } : {}),
        ...(this.current !== undefined ? { current: this.current } : {}),
      },
    };
  }
}

/** The most of a client's value an error message repeats: enough to recognise it, never a payload. */
export const ECHO_MAX_CHARS = 100;

/** A client value as an error message may quote it: at most ECHO_MAX_CHARS characters. */
export function shown(value: string): string {
  return value.length <= ECHO_MAX_CHARS ? value : `${value.slice(0, ECHO_MAX_CHARS)}... (${value.length} characters)`;
}

export const badParam = (param: string, message: string, details?: ErrorDetail[]) =>
  new AppError(ErrorCode.badParam, message, { param, ...(details ? { details } : {}) });

export const notFound = (param: string, message: string) =>
  new AppError(ErrorCode.badParam, message, { status: 404, param });

export const conflict = (param: string, message: string, details?: ErrorDetail[]) =>
  new AppError(ErrorCode.badParam, message, { status: 409, param, ...(details ? { details } : {}) });

/** 412: the client's If-Match names another version than the one stored; `current` is the object as stored. */
export const preconditionFailed = (param: string, message: string, current: unknown, headers?: Record<string, string>) =>
  new AppError(ErrorCode.badParam, message, { status: 412, param, current, ...(headers ? { headers } : {}) });

/**
 * 503 code 15: a dependency (Postgres, during a failover too) is away for now. Retry-After says when
 * to try again (API.md, "More than one Postgres": a failover takes seconds).
 */
export const unavailable = (message = 'Service temporarily unavailable, try again shortly') =>
  new AppError(ErrorCode.unavailable, message, { headers: { 'Retry-After': '2' } });
