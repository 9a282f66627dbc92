import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Scope, TokenCheck } from '../../shared/domain/auth/index.js';
import type { Config } from '../../shared/infra/config.js';
import type { AppContext } from '../../shared/app/context.js';
import type { AppError } from '../../shared/infra/errors.js';
import type { Principal } from '../middleware/auth.js';
import type { ErrorStatus, ErrorTexts } from '../openapi/common.js';
import type { OpenApi } from '../openapi/openapi.types.js';

/*
 * One endpoint, declared once: the router (api/endpoints/router.ts) and the OpenAPI document
 * (api/openapi/document.ts) are both built from these objects, so a route cannot exist without its
 * documentation, nor with other scopes than the document states.
 */

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: `'public'` needs no token (operations endpoints), `'any'` any valid token, a list
 * a token holding any one of the scopes.
 */
export type EndpointScopes = 'public' | 'any' | readonly [Scope, ...Scope[]];

export interface Lifecycle {
  /** True from the moment the process starts shutting down: /readyz then answers 503. */
  isDraining(): boolean;
}

/** What the process adds to the AppContext for the operations endpoints. */
export interface ApiRuntime {
  lifecycle: Lifecycle;
  /** The document built from the same endpoint list. */
  openapi: OpenApi;
}

/** An answer that is not JSON (metrics, the docs page), or needs its own status or headers. */
export class RawAnswer {
  constructor(
    readonly contentType: string,
    readonly body: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

export interface EndpointInput<Q, B, P, H> {
  query: Q;
  body: B;
  /** The declared request headers, parsed with the definition's `headers` schema. */
  headers: H;
  /** Path parameters (`/api/v1/property/{property_uid}`), parsed with the definition's schema. */
  params: P;
  /** The token's company, scopes and uids; throws on a public endpoint. */
  readonly principal: Principal;
  /**
   * With `recentToken`, when the token came from this process's memory: pass it to the write
   * (Submitter.check), which confirms it in its own statement. Undefined after a fresh lookup.
   */
  tokenCheck: TokenCheck | undefined;
  /** Aborted when the client goes away before the answer is sent: a long poll stops waiting (and reads nothing more). */
  signal: AbortSignal;
  runtime: ApiRuntime;
  /** For what the schemas do not cover (a header, the raw body); answering through res is allowed. */
  req: Request;
  res: Response;
}

interface AnswerDoc<A extends z.ZodType> {
  description: string;
  schema: A;
  /** Default `application/json`. */
  contentType?: string;
  example?: unknown;
  examples?: Record<string, { summary: string; value: unknown }>;
  /** Headers this answer carries besides X-Request-Id and the rate limit's (documented on the 200 answer). */
  headers?: z.ZodObject;
}

/** Replaces the error envelope on this endpoint (the v2 bodies); `undefined` keeps the envelope. */
type ErrorBodyFormatter = (err: AppError) => { status?: number; body: unknown } | undefined;

type SchemaOf<S> = S extends z.ZodType ? z.output<S> : undefined;
type BodySource = z.ZodType | ((config: Config) => z.ZodType);
type BodyOf<B> = B extends (config: Config) => infer S ? SchemaOf<S> : SchemaOf<B>;

interface EndpointDefinition<
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  B extends BodySource | undefined = BodySource | undefined,
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
  A extends z.ZodType = z.ZodType,
  H extends z.ZodObject | undefined = z.ZodObject | undefined,
> {
  method: Method;
  /** The full path in OpenAPI form: `/api/v1/bookings`, `/api/v2/cancel-booking`, `/api/v1/property/{property_uid}`. */
  path: string;
  operationId: string;
  tag: 'Bookings' | 'Calendar' | 'Tasks' | 'Inventory' | 'Direct bookings' | 'Messaging' | 'Changes' | 'Operations';
  summary: string;
  /** The decisions a client author needs (from the config where they name a limit); the scope sentence is appended. */
  description: string | ((config: Config) => string);
  scopes: EndpointScopes;
  /**
   * A token found valid within the last minute is taken from memory instead of looked up (the
   * accept path's round trip). Only for a handler whose every write passes `tokenCheck` to the
   * statement that stores (insertRequests, messaging's appendOutbound and confirmLiveToken): its
   * answer then goes out only once the token is confirmed live, by that write or,
   * when the request writes nothing or fails, by a fresh lookup (auth/token-check.ts). A GET (a
   * read: it writes nothing) starts that lookup at once and runs beside it, answering once it is
   * done: the lookup's round trip then overlaps the rate limit's and the read's (issue 37). Never
   * for a GET that begins its answer before it returns (a stream): the router confirms the token
   * only before an answer it sends itself.
   */
  recentToken?: true;
  query?: Q;
  /** OpenAPI docs of query fields whose schema parses text into something else; keys checked against the schema. */
  queryDocs?: Q extends z.ZodObject ? { [K in keyof Q['shape']]?: Record<string, unknown> } : never;
  params?: P;
  /** A schema, or one built from the config (limits); named as a component of the document. */
  body?: B;
  bodyDoc?: { name: string; example: unknown };
  /** Request headers besides X-Request-Id: validated by the router (a bad value is 400 code 11 naming it) and documented. */
  headers?: H;
  answer: AnswerDoc<A>;
  /** Error statuses besides the ones every guarded endpoint has (400, 401, 403, 429, 500, 503). */
  errors?: readonly ErrorStatus[];
  errorTexts?: ErrorTexts | ((config: Config) => ErrorTexts);
  errorBody?: ErrorBodyFormatter;
  handle(
    ctx: AppContext,
    input: EndpointInput<SchemaOf<Q>, BodyOf<B>, SchemaOf<P>, SchemaOf<H>>,
  ): Promise<z.input<A> | RawAnswer> | z.input<A> | RawAnswer;
}

/** What the router and the document read: the type parameters erased. */
export type AnyEndpoint = EndpointDefinition<z.ZodObject | undefined, BodySource | undefined, z.ZodObject | undefined, z.ZodType, z.ZodObject | undefined>;

/** Types `handle` from the schemas; returns the definition as the list holds it. */
export function defineEndpoint<
  Q extends z.ZodObject | undefined = undefined,
  B extends BodySource | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
  A extends z.ZodType = z.ZodType,
  H extends z.ZodObject | undefined = undefined,
>(def: EndpointDefinition<Q, B, P, A, H>): AnyEndpoint {
  return def;
}

/** The body schema of a definition, built once per process from its config. */
export function bodySchemaOf(def: AnyEndpoint, config: Config): z.ZodType | undefined {
  const body = def.body;
  return typeof body === 'function' ? body(config) : body;
}
