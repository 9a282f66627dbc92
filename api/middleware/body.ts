import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import type { Config } from '../../shared/infra/config.js';
import { AppError, ErrorCode } from '../../shared/infra/errors.js';

/**
 * Deepest nesting of arrays and objects a JSON body may have. Every body the API takes is at most
 * 3 levels deep (`{"days": [{...}]}`); 32 leaves room and stops a 100,000-level body before it
 * reaches anything recursive (hashing, validation, logging).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * What is read as JSON: `application/json`, `application/<x>+json` and `text/json` (any charset
 * parameter), and a body with no (or a blank) Content-Type, which some iGMS clients send. Anything else
 * (`text/plain`, a form) is refused with 415.
 */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined || value.trim() === '') return true;
  const type = value.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || type === 'text/json' || /^application\/[\w.-]+\+json$/.test(type);
}

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `max` (a bare array or object is
 * one level). Runs on every body right after JSON.parse (V8 parses iteratively, so a 100,000-level
 * body parses without harm; everything after the parse may recurse). Recursive, but never deeper
 * than `max` + 1 calls: a container past the limit answers before its children are looked at. It
 * allocates nothing (a walk with a stack of its own pushed every day of a batch: ~15 KB a 365-day
 * batch); the byte scan of the raw text it once replaced took ~200 µs (issue 23's accept path).
 */
export function jsonDepthExceeds(value: unknown, max: number, depth = 1): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth > max) return true;
  if (Array.isArray(value)) {
    for (const x of value as unknown[]) if (jsonDepthExceeds(x, max, depth + 1)) return true;
    return false;
  }
  for (const k in value) if (jsonDepthExceeds((value as Record<string, unknown>)[k], max, depth + 1)) return true;
  return false;
}

type WithRawBody = IncomingMessage & { rawBody?: Buffer };

/** The body as received (before JSON.parse), on a route whose body jsonBody read; empty otherwise. */
export const rawBodyOf = (req: IncomingMessage): Buffer => (req as WithRawBody).rawBody ?? Buffer.alloc(0);

const tooDeep = () =>
  new AppError(ErrorCode.badParam, `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`, { param: 'body' });

const refuseNonJson: RequestHandler = (req, _res, next) => {
  if (!isJsonContentType(req.get('content-type'))) {
    throw new AppError(ErrorCode.badParam, 'The body must be JSON (Content-Type: application/json)', { status: 415, param: 'Content-Type' });
  }
  next();
};

/**
 * The body parser of the routes that take a body, placed after authentication (api/endpoints/
 * router.ts): a request without a valid token, or to a path that takes no body, never has its body
 * parsed. Nesting is bounded right after the parse (jsonDepthExceeds).
 */
export const jsonBody = (config: Config): RequestHandler[] => [
  refuseNonJson,
  express.json({
    limit: config.http.bodyLimitBytes,
    type: () => true,
    strict: false,
    verify(req: IncomingMessage, _res, buf: Buffer) {
      // Kept for the routes that check a signature over the bytes received (rawBodyOf).
      (req as WithRawBody).rawBody = buf;
    },
  }),
  // Nesting is bounded on the parsed value, before anything that may recurse reads it.
  (req, _res, next) => {
    if (jsonDepthExceeds(req.body, MAX_JSON_DEPTH)) throw tooDeep();
    next();
  },
];
