import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

/*
 * Adds `.openapi()` to zod schemas, for the document only: it annotates copies, the schemas that
 * validate stay as they are.
 *
 * zod 4 copies prototype methods onto each schema when the schema is built, so a wire schema built
 * before this ran (any module may import shared/ first) has no `.openapi` of its own. `annotate`
 * calls the prototype method on it directly; its result is a fresh copy that has the method.
 * Imported first by api/openapi/common.ts, which every endpoint definition imports.
 */
extendZodWithOpenApi(z);

const openapiMethod = (z.ZodType.prototype as unknown as { openapi: (...args: unknown[]) => unknown }).openapi;

/** `schema.openapi(metadata)`, whenever the schema was built. */
export function annotate<T extends z.ZodType>(schema: T, metadata: Record<string, unknown> = {}): T {
  return openapiMethod.call(schema, metadata) as T;
}

/**
 * A copy of a wire schema named as a component of the document (`#/components/schemas/<name>`):
 * the generator registers it where it is first referenced. Make each name once, at module level.
 */
export function named<T extends z.ZodType>(name: string, schema: T): T {
  return openapiMethod.call(schema, name) as T;
}
