import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import { retryingFetch, type RetryOptions } from './retry.js';
import type { paths } from './schema.js';
import type { PathsWith } from './types.js';

type Init<P extends keyof paths, M extends 'get' | 'post'> = MaybeOptionalInit<paths[P], M>;
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type InitArgs<P extends keyof paths, M extends 'get' | 'post'> = RequiredKeys<Init<P, M>> extends never ? [init?: Init<P, M>] : [init: Init<P, M>];
type StrictMethod<M extends 'get' | 'post'> = <P extends PathsWith<M>>(url: P, ...init: InitArgs<P, M>) => Promise<FetchResponse<Extract<paths[P][M], object>, Init<P, M>, `${string}/${string}`>>;

/**
 * openapi-fetch's client, with GET and POST typed so that a misspelt key anywhere in a literal
 * body or query is a compile error: openapi-fetch infers the whole init argument, which lets an
 * optional key with a wrong name through (a nested `{ prize: 120 }` compiles there, not here).
 */
export type PropertyOpsClient = Omit<Client<paths>, 'GET' | 'POST'> & { GET: StrictMethod<'get'>; POST: StrictMethod<'post'> };

export interface PropertyOpsClientOptions {
  /** Where the service runs, e.g. `http://localhost:3000` (no trailing `/api/v1`: the paths carry it). */
  baseUrl: string;
  /** An access token; sent as `Authorization: Bearer <token>`. */
  token: string;
  /** Retries of 429 and 503 honouring Retry-After (default 3 retries); `false` for none. */
  retry?: RetryOptions | false;
  /** The fetch to send with (default the global one). */
  fetch?: (request: Request) => Promise<Response>;
}

/**
 * The typed client: `client.GET('/api/v1/bookings', { params: { query: { page: 2 } } })` resolves to
 * `{ data, error, response }` with `data` typed as the document's answer. Comma-list parameters
 * (booking_uids, property_uid...) are sent as the API reads them: `a,b,c`.
 */
export function createPropertyOpsClient(options: PropertyOpsClientOptions): PropertyOpsClient {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  // The same object: only its GET and POST are typed more strictly.
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.token}` },
    fetch: options.retry === false ? send : retryingFetch(send, options.retry),
    querySerializer: { array: { style: 'form', explode: false } },
  }) as unknown as PropertyOpsClient;
}
