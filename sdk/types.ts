import type { components, paths } from './schema.js';

/*
 * Names for the generated types (sdk/schema.d.ts) that the helpers and their callers need.
 */

/** The JSON answer (HTTP 200) of a method. */
export type AnswerOf<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends { responses: { 200: { content: { 'application/json': infer A } } } } ? A : never;

/** The paths that have method M (`get?: never` marks a path without it). */
export type PathsWith<M extends 'get' | 'post'> = { [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never }[keyof paths];

/** The query parameters of a method. */
export type QueryOf<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The GET methods whose query has parameter K. */
type GetWith<K extends string> = { [P in PathsWith<'get'>]: K extends keyof QueryOf<P, 'get'> ? P : never }[PathsWith<'get'>];

/** The list methods numbered by `page` (bookings, tasks, inventory, threads, webhook deliveries...). */
export type PagedPath = GetWith<'page'>;

/** The list methods that continue from `meta.cursor` (the change feed). */
export type CursorPath = GetWith<'cursor'>;

/** What `paginate()` walks. */
export type ListPath = PagedPath | CursorPath;

export type Schemas = components['schemas'];
export type Booking = Schemas['Booking'];
export type Task = Schemas['Task'];
export type SetCalendarBatchBody = paths['/api/v1/set-calendar-batch']['post']['requestBody']['content']['application/json'];
export type RequestStatus = Schemas['RequestStatus'];
