import { Router, type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import type { z } from 'zod';
import type { TokenCheck } from '../../shared/domain/auth/index.js';
import { retryRead } from '../../shared/infra/db/retry-read.js';
import type { AppContext } from '../../shared/app/context.js';
import { parseInput } from '../../shared/infra/http/validation.js';
import { withoutEmptyParams } from '../../shared/infra/http/wire.js';
import { confirmToken, failureState, principalOf, type FailureState } from '../middleware/auth.js';
import { toAppError } from '../middleware/errors.js';
import { errorStatus } from '../middleware/error-mode.js';
import { jsonBody } from '../middleware/body.js';
import { guard } from '../middleware/guard.js';
import { bodySchemaOf, RawAnswer, type AnyEndpoint, type ApiRuntime, type EndpointInput } from './define.js';

/** `/api/v1/property/{property_uid}` (OpenAPI) as Express writes it: `/api/v1/property/:property_uid`. */
const expressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/** The route label of the metrics: the documented path, the same whatever the path parameters. */
const labelled =
  (path: string): RequestHandler =>
  (_req, res, next) => {
    res.locals.routeLabel = path;
    next();
  };

/** The headers a definition declares, by their declared names (HTTP header names ignore case). */
function headersOf(req: Request, schema: z.ZodObject): Record<string, string | undefined> {
  return Object.fromEntries(Object.keys(schema.shape).map((name) => [name, req.get(name)]));
}

/** Parses the inputs, runs the handler, writes its answer (unless the handler answered itself). */
function run(ctx: AppContext, runtime: ApiRuntime, def: AnyEndpoint, failures: FailureState): RequestHandler {
  const bodySchema = bodySchemaOf(def, ctx.config);
  return async (req, res) => {
    const query = def.query ? parseInput(def.query, withoutEmptyParams(req.query)) : undefined;
    const params = def.params ? parseInput(def.params, req.params) : undefined;
    const body = bodySchema ? parseInput(bodySchema, req.body) : undefined;
    // The handler gets the parsed body; the raw one (a batch's 365 objects) need not live on through
    // the handler's database round trips: released, it dies young instead of being copied by the
    // young-generation collections that run meanwhile.
    if (bodySchema) req.body = undefined;
    const headers = def.headers ? parseInput(def.headers, headersOf(req, def.headers)) : undefined;
    const aborted = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) aborted.abort();
    });
    const input: EndpointInput<unknown, unknown, unknown, unknown> = {
      query,
      body,
      params,
      headers,
      get principal() {
        return principalOf(res);
      },
      tokenCheck: res.locals.tokenCheck as TokenCheck | undefined,
      signal: aborted.signal,
      runtime,
      req,
      res,
    };
    const handle = async () => def.handle(ctx, input as Parameters<AnyEndpoint['handle']>[1]);
    // A GET reads only: safe to run again when its connection died under it, unless it already
    // began answering (a stream, a long poll's headers).
    const answer = def.method === 'get' ? await retryRead(handle, () => !res.headersSent) : await handle();
    if (res.headersSent) return;
    await confirmToken(ctx, failures, req, res);
    if (answer instanceof RawAnswer) {
      for (const [k, v] of Object.entries(answer.headers)) res.setHeader(k, v);
      res.type(answer.contentType).send(answer.body);
    } else {
      res.json(answer);
    }
  };
}

/**
 * A refusal or failure of a request whose token came from memory and was not confirmed (rate limit,
 * scope, body, the handler's own errors) goes out only once the token is: a revoked one is answered
 * as revoked, never with what the request would have got.
 */
function confirmBeforeError(ctx: AppContext, failures: FailureState): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    confirmToken(ctx, failures, req, res).then(
      () => next(err),
      (refusal: unknown) => next(refusal),
    );
  };
}

/**
 * The definition's own error body (v2 endpoints); anything it leaves goes on to the envelope. Under
 * ERROR_HTTP_STATUS=always-200 these bodies too come with HTTP 200, as every other error does.
 */
function formatErrors(format: NonNullable<AnyEndpoint['errorBody']>, always200: boolean): ErrorRequestHandler {
  return (err: unknown, _req, res, next) => {
    const appErr = toAppError(err);
    const formatted = appErr ? format(appErr) : undefined;
    if (!appErr || !formatted || res.headersSent) {
      next(err);
      return;
    }
    res.locals.errorCode = appErr.code;
    for (const [k, v] of Object.entries(appErr.headers)) res.setHeader(k, v);
    res.status(errorStatus(res, formatted.status ?? appErr.status, always200)).json(formatted.body);
  };
}

/** One Express route per definition: label, guard (token, rate limit, scope), handler. */
export function endpointRouter(ctx: AppContext, runtime: ApiRuntime, endpoints: readonly AnyEndpoint[]): Router {
  const router = Router();
  // One failed-authentication state for every route of this app.
  const failures = failureState();
  for (const def of endpoints) {
    router[def.method](
      expressPath(def.path),
      labelled(def.path),
      ...guard(ctx, failures, def.scopes, { recent: def.recentToken === true, confirmBeside: def.method === 'get' }),
      // Bodies are parsed only on routes that take one, once the token and scope passed.
      ...(def.body ? jsonBody(ctx.config) : []),
      run(ctx, runtime, def, failures),
      ...(def.recentToken ? [confirmBeforeError(ctx, failures)] : []),
      ...(def.errorBody ? [formatErrors(def.errorBody, ctx.config.http.errorsAlways200)] : []),
    );
  }
  return router;
}

/**
 * The definitions' own error bodies for errors raised before routing (a body that is not JSON
 * fails in the parser, and Express skips routes while an error is pending). Mounted after the
 * endpoint router. Matched on the exact path: only paths without parameters have their own body.
 */
export function endpointErrorBodies(endpoints: readonly AnyEndpoint[], always200: boolean): ErrorRequestHandler {
  const byRoute = new Map(endpoints.flatMap((d) => (d.errorBody ? [[`${d.method.toUpperCase()} ${d.path}`, formatErrors(d.errorBody, always200)] as const] : [])));
  return (err: unknown, req, res, next) => {
    const format = byRoute.get(`${req.method} ${req.path}`);
    if (format) format(err, req, res, next);
    else next(err);
  };
}
