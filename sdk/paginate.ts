import type { PropertyOpsClient } from './client.js';
import { dataOf } from './errors.js';
import type { AnswerOf, ListPath, QueryOf } from './types.js';

/*
 * The paging rules of docs/api.md. Numbered lists (bookings, tasks, inventory, webhook deliveries):
 * 25 a page from `page` (1-based), `meta.has_next_page` exact, so the walk stops on the last page
 * without asking for an empty one; get-threads says `meta.hasNextPage`. The change feed
 * (get-changes): each page's `meta.cursor` is the next page's `cursor`, and `meta.has_more` false
 * means the walk has caught up with the head (a later call from that cursor gets what comes next).
 */

interface PageMeta {
  page?: number;
  has_next_page?: boolean;
  hasNextPage?: boolean;
  cursor?: string;
  has_more?: boolean;
}

/** The query of the next page, or undefined when this page was the last. */
function nextQuery(query: Record<string, unknown>, answer: { data?: unknown; meta?: PageMeta }): Record<string, unknown> | undefined {
  const meta = answer.meta ?? {};
  if (meta.cursor !== undefined) return meta.has_more === true ? { ...query, cursor: meta.cursor } : undefined;
  const more = meta.has_next_page ?? meta.hasNextPage ?? false;
  if (!more || (Array.isArray(answer.data) && answer.data.length === 0)) return undefined;
  return { ...query, page: (meta.page ?? Number(query.page ?? 1)) + 1 };
}

type LooseGet = (path: string, init: { params: { query: Record<string, unknown> }; signal?: AbortSignal }) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * Every page of a list method, in order, each the method's whole answer (`data` and `meta`):
 *
 *     for await (const page of paginate(client, '/api/v1/bookings', { query: { booking_status: 'accepted' } })) {
 *       for (const booking of page.data) ...
 *     }
 *
 * Starts at `query.page` (default 1) or `query.cursor`. A refusal throws an ApiError.
 */
export async function* paginate<P extends ListPath>(
  client: PropertyOpsClient,
  path: P,
  options: { query?: QueryOf<P, 'get'>; signal?: AbortSignal } = {},
): AsyncGenerator<AnswerOf<P, 'get'>, void, undefined> {
  const get = client.GET.bind(client) as unknown as LooseGet;
  let query: Record<string, unknown> | undefined = { ...(options.query as Record<string, unknown> | undefined) };
  while (query) {
    const answer = dataOf(await get(path, { params: { query }, ...(options.signal ? { signal: options.signal } : {}) })) as AnswerOf<P, 'get'>;
    yield answer;
    query = nextQuery(query, answer as { data?: unknown; meta?: PageMeta });
  }
}

/** Every item of every page (the pages' `data` one after another). */
export async function* paginateItems<P extends ListPath>(
  client: PropertyOpsClient,
  path: P,
  options: { query?: QueryOf<P, 'get'>; signal?: AbortSignal } = {},
): AsyncGenerator<ItemOf<P>, void, undefined> {
  for await (const page of paginate(client, path, options)) yield* (page as { data: ItemOf<P>[] }).data;
}

/** The element type of a list method's `data`. */
export type ItemOf<P extends ListPath> = AnswerOf<P, 'get'> extends { data: (infer I)[] } ? I : never;
