import { annotate, named } from './extend-zod.js';
import type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { Scope } from '../../shared/domain/auth/index.js';
import { ErrorCode } from '../../shared/infra/errors.js';
import { PAGE_SIZE } from '../../shared/infra/http/wire.js';

/*
 * Doc helpers every endpoint definition shares: the error envelope with its code numbers, the
 * page envelope, the headers, the security schemes, and helpers that document query parameters.
 * The schemas of requests and answers themselves come from shared/<noun>/<noun>.schema.ts.
 */

const errorDetailSchema = z.object({
  path: z.string().describe('The offending parameter, e.g. days[3].min_stay'),
  message: z.string(),
  rule: z.string().optional().describe('A stay refused by book-property (409): the broken rule (blocked_by_host, min_stay, ...; see GET /api/v1/quote)'),
  date: z.string().optional().describe('A stay refused by book-property (409): the date the rule is of'),
});

/** `{error: {code, message, param?, details?}}` where code is one of `codes`. */
function errorEnvelope(codes: readonly [number, ...number[]], codeText: string) {
  return z
    .object({
      error: z.object({
        // zod-to-openapi renders only the first value of a multi-value literal: state them all.
        code: z.literal(codes).describe(codeText).openapi({ type: 'integer', enum: [...codes] }),
        message: z.string().describe('Human-readable; never internals'),
        param: z.string().optional().describe('Code 11: the offending parameter (days[3].min_stay, body, path, Idempotency-Key)'),
        details: z.array(errorDetailSchema).optional().describe('Code 11 schema failures: every issue found (at most 50); a stay book-property refuses (409): every broken rule'),
      }),
    })
    .describe('The error envelope: `data` and `error` never appear together');
}

/** The error envelopes by code, as named components (so the code numbers show in the document). */
const errorSchemas = {
    badParam: named('BadParamError', errorEnvelope([ErrorCode.badParam], '11: a parameter is missing, malformed, out of range or names an unknown object')),
    unauthorized: named('UnauthorizedError', errorEnvelope([ErrorCode.unauthorized], '12: access token missing, unknown or revoked')),
    forbidden: named('ForbiddenError', errorEnvelope([ErrorCode.appDisabled, ErrorCode.missingScope], '13: the app behind the token is disabled; 14: the token lacks the scope the method needs')),
    internal: named('InternalError', errorEnvelope([ErrorCode.internal], '0: internal error (details are logged, never sent)')),
    unavailable: named('UnavailableError', errorEnvelope([ErrorCode.unavailable], '15: a dependency (Postgres, the queue) is unreachable right now; retry later')),
    rateLimited: named('RateLimitedError', errorEnvelope([ErrorCode.rateLimited], '16: too many requests per minute for this token')),
};

const requestIdHeader = z.string().describe('The request id: the X-Request-Id the client sent (1-128 of [A-Za-z0-9_.:@/+=-]) or a generated UUID. It is on every log line of the request.');

export const plainHeaders = z.object({ 'X-Request-Id': requestIdHeader });

/** Headers of every answer of a token-protected method (after the token was recognised). */
export const rateLimitHeaders = z.object({
  'X-Request-Id': requestIdHeader,
  RateLimit: z.string().describe('IETF draft: `limit=1000, remaining=998, reset=42` (reset in seconds)').openapi({ example: 'limit=1000, remaining=998, reset=42' }),
  'RateLimit-Policy': z.string().describe('`1000;w=60`: requests per 60-second window per token').openapi({ example: '1000;w=60' }),
});

export const retryAfterHeaders = z.object({ 'Retry-After': z.string().describe('Seconds until the window resets').openapi({ example: '42' }) });

/** The version of the task an answer carries (update-task), as If-Match takes it back. */
export const etagHeaders = z.object({
  ETag: z.string().describe('The task\'s version in quotes ("<version>"): send it back as If-Match to update only that version').openapi({ example: '"4"' }),
});

export const requestHeaders = z.object({
  'X-Request-Id': z.string().optional().describe('Optional: your own id for this request, echoed back and written on every log line of it. Else one is generated.'),
});

export function jsonContent(schema: z.ZodType, example?: unknown, examples?: Record<string, { summary: string; value: unknown }>) {
  return {
    'application/json': {
      schema,
      ...(example !== undefined ? { example } : {}),
      ...(examples ? { examples } : {}),
    },
  };
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 412 | 413 | 415 | 429 | 500 | 503;

export type ErrorTexts = Partial<Record<ErrorStatus, { description: string; example: unknown; schema?: z.ZodType; headers?: z.ZodObject }>>;

/** The error answers of an operation, each with its envelope schema, code numbers and an example. */
/** One error status's text: "Code N: <when>", with an example envelope of that code (and its param). */
export const errorText = (code: number, when: string, message: string, param?: string) => ({
  description: `Code ${code}: ${when}`,
  example: { error: param === undefined ? { code, message } : { code, message, param } },
});

export function errorResponses(statuses: readonly ErrorStatus[], texts: ErrorTexts = {}): Record<string, ResponseConfig> {
  const e = errorSchemas;
  const defaults: Record<ErrorStatus, { schema: z.ZodType; description: string; example: unknown; headers?: z.ZodObject }> = {
    400: { schema: e.badParam, description: 'Code 11: a parameter is missing, malformed or out of range', example: { error: { code: 11, message: 'Invalid parameter page: must be a positive integer', param: 'page', details: [{ path: 'page', message: 'must be a positive integer' }] } } },
    401: { schema: e.unauthorized, description: 'Code 12: access token missing, unknown or revoked', example: { error: { code: 12, message: 'Access token is missing or invalid' } } },
    403: { schema: e.forbidden, description: 'Code 13: the app is disabled; code 14: the token lacks the scope', example: { error: { code: 14, message: 'This method requires one of the scopes: tasks' } } },
    404: { schema: e.badParam, description: 'Code 11: an unknown object, or one of another company', example: { error: { code: 11, message: 'Unknown property_uid pr_x', param: 'property_uid' } } },
    409: { schema: e.badParam, description: 'Code 11: a conflict', example: { error: { code: 11, message: 'Conflict', param: 'body' } } },
    410: { schema: e.badParam, description: 'Code 11: gone (a cursor older than what is kept)', example: { error: { code: 11, message: 'cursor expired', param: 'cursor' } } },
    412: { schema: e.badParam, description: 'Code 11: If-Match names another version than the one stored', example: { error: { code: 11, message: 'Precondition failed', param: 'If-Match' } }, headers: rateLimitHeaders.extend(etagHeaders.shape) },
    413: { schema: e.badParam, description: 'Code 11: the body is larger than BODY_LIMIT_BYTES (default 2 MiB)', example: { error: { code: 11, message: 'Request body too large', param: 'body' } } },
    415: { schema: e.badParam, description: 'Code 11: a body that is not JSON (Content-Type other than application/json, application/*+json or text/json; no Content-Type is read as JSON), or an encoding or charset the service does not read', example: { error: { code: 11, message: 'The body must be JSON (Content-Type: application/json)', param: 'Content-Type' } } },
    429: { schema: e.rateLimited, description: 'Code 16: over the per-token limit; retry after Retry-After seconds', example: { error: { code: 16, message: 'Too many requests: at most 1000 per minute for this token' } }, headers: rateLimitHeaders.extend(retryAfterHeaders.shape) },
    500: { schema: e.internal, description: 'Code 0: internal error', example: { error: { code: 0, message: 'Internal error' } } },
    503: { schema: e.unavailable, description: 'Code 15: Postgres or the queue is unreachable right now', example: { error: { code: 15, message: 'Service temporarily unavailable, try again shortly' } } },
  };
  const out: Record<string, ResponseConfig> = {};
  for (const status of statuses) {
    const d = { ...defaults[status], ...texts[status] };
    out[String(status)] = { description: d.description, headers: d.headers ?? plainHeaders, content: jsonContent(d.schema, d.example) };
  }
  return out;
}

/** Errors of every token-protected method; add 404/409/413/415 per operation. */
export const guardedErrors = [400, 401, 403, 429, 500, 503] as const;

export const securitySchemes = {
  accessToken: { type: 'apiKey', in: 'query', name: 'access_token', description: 'The token as the `access_token` query parameter (what iGMS clients send).' },
  bearerAuth: { type: 'http', scheme: 'bearer', description: 'The same token as `Authorization: Bearer <token>`.' },
} as const;

/**
 * Security of a method that needs any one of `scopes`: either scheme, each alternative naming one
 * scope (OpenAPI 3.1 lets non-OAuth requirements list roles).
 */
export function anyScope(scopes: readonly Scope[]): RouteConfig['security'] {
  return scopes.flatMap((s): Record<string, string[]>[] => [{ accessToken: [s] }, { bearerAuth: [s] }]);
}

export const scopesText = (scopes: readonly Scope[]) =>
  `\n\nScope: ${scopes.length === 1 ? '' : 'any one of '}${scopes.map((s) => `\`${s}\``).join(', ')}.`;

export const pageMetaSchema = z.object({
  page: z.number().int().min(1).describe('The page asked for'),
  has_next_page: z.boolean().describe('Exact: true only if the next page holds at least one item'),
});

/** `{data: [T...], meta: {page, has_next_page}}`, pages of PAGE_SIZE. */
export const pageOfSchema = (item: z.ZodType) =>
  z.object({ data: z.array(item).max(PAGE_SIZE).describe(`At most ${PAGE_SIZE} items; a page past the end is []`), meta: pageMetaSchema });

/* Documentation of query parameters whose zod schema parses text into something else. */

export const commaListDoc = (what: string, example: string, items: Record<string, unknown> = { type: 'string' }) => ({
  type: 'array' as const,
  items,
  description: `${what}, comma-separated (a,b,c); blanks are ignored; at most 500 values.`,
  example: example.split(','),
  param: { style: 'form' as const, explode: false, example },
});

export const dateBoundDoc = (description: string, example: string) => ({
  type: 'string' as const,
  pattern: '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}(:?\\d{2})?)?)?$',
  description:
    `${description} YYYY-MM-DD, YYYY-MM-DD HH:MM:SS, or an ISO 8601 date-time as JavaScript and luxon write it ` +
    '(2024-05-15T00:00:00.000-04:00, 2024-05-15T04:00:00Z; fraction optional, dropped), a real date. Against a local_* ' +
    'field the date-time as written is used (the offset is ignored); against a UTC field (created_dttm, updated_dttm, ' +
    'booked_dttm) the instant is converted to UTC; no offset means UTC. Sent empty, it is absent.',
  example,
});

export const pageDoc = {
  type: 'integer' as const,
  minimum: 1,
  maximum: 1_000_000,
  default: 1,
  pattern: undefined,
  description: `1-based page number; ${PAGE_SIZE} items per page.`,
  example: 1,
};

/**
 * The query schema of a route with documentation added to some of its fields. Keys are checked
 * against the schema's own shape, so a renamed parameter cannot leave a stale entry here.
 */
export function documentedQuery<S extends z.ZodObject>(schema: S, docs: { [K in keyof S['shape']]?: Record<string, unknown> }): z.ZodObject {
  const shape: Record<string, z.ZodType> = { ...schema.shape };
  for (const [key, meta] of Object.entries(docs)) {
    const field = shape[key];
    if (field && meta) shape[key] = annotate(field, meta);
  }
  return z.object(shape);
}
