import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Config } from '../../shared/infra/config.js';
import { bodySchemaOf, type AnyEndpoint, type EndpointScopes } from '../endpoints/define.js';
import {
  anyScope,
  documentedQuery,
  errorResponses,
  guardedErrors,
  jsonContent,
  plainHeaders,
  rateLimitHeaders,
  requestHeaders,
  scopesText,
} from './common.js';
import { named } from './extend-zod.js';

/** Either scheme, with the scopes of the definition; a public endpoint has none. */
function securityOf(scopes: EndpointScopes): RouteConfig['security'] {
  if (scopes === 'public') return [];
  if (scopes === 'any') return [{ accessToken: [] }, { bearerAuth: [] }];
  return anyScope(scopes);
}

function scopeSentence(scopes: EndpointScopes): string {
  if (scopes === 'public') return '';
  if (scopes === 'any') return '\n\nScope: any valid token.';
  return scopesText(scopes);
}

/** The OpenAPI operation of one endpoint definition. */
export function operationOf(def: AnyEndpoint, config: Config): RouteConfig {
  const guarded = def.scopes !== 'public';
  const description = typeof def.description === 'function' ? def.description(config) : def.description;
  const errorTexts = typeof def.errorTexts === 'function' ? def.errorTexts(config) : def.errorTexts;
  const body = bodySchemaOf(def, config);
  const { answer } = def;
  const headers = guarded ? (def.headers ? requestHeaders.extend(def.headers.shape) : requestHeaders) : def.headers;
  const request: RouteConfig['request'] = {
    ...(def.query ? { query: def.queryDocs ? documentedQuery(def.query, def.queryDocs) : def.query } : {}),
    ...(def.params ? { params: def.params } : {}),
    ...(headers ? { headers } : {}),
    ...(body
      ? // A body the schema lets be absent (the reports' filters may all come from the query) is not required.
        { body: { required: !body.safeParse(undefined).success, content: jsonContent(def.bodyDoc ? named(def.bodyDoc.name, body) : body, def.bodyDoc?.example) } }
      : {}),
  };
  const baseHeaders = guarded ? rateLimitHeaders : plainHeaders;
  const answerHeaders = answer.headers ? baseHeaders.extend(answer.headers.shape) : baseHeaders;
  const answerContent =
    answer.contentType && answer.contentType !== 'application/json'
      ? { [answer.contentType]: { schema: answer.schema, ...(answer.example !== undefined ? { example: answer.example } : {}) } }
      : jsonContent(answer.schema, answer.example, answer.examples);
  // A method without query, path or body parameters has nothing to refuse with 400 (a body sent
  // to it is never read).
  const takesInput = def.query !== undefined || def.params !== undefined || def.body !== undefined;
  const errors = [...(guarded ? guardedErrors.filter((s) => s !== 400 || takesInput) : []), ...(def.errors ?? [])];
  return {
    method: def.method,
    path: def.path,
    operationId: def.operationId,
    tags: [def.tag],
    summary: def.summary,
    description: description + scopeSentence(def.scopes),
    security: securityOf(def.scopes),
    ...(Object.keys(request).length > 0 ? { request } : {}),
    responses: {
      200: { description: answer.description, headers: answerHeaders, content: answerContent },
      ...(errors.length > 0 ? errorResponses(errors, errorTexts) : {}),
    },
  };
}
