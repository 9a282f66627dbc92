import { extendZodWithOpenApi, type OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

/*
 * Adds `.openapi()` to zod schemas, for the document only: it annotates copies, the schemas that
 * validate stay as they are. Imported first by every api/openapi module.
 *
 * zod 4 copies prototype methods onto each schema when the schema is built, so a wire schema built
 * before this ran (any module may import shared/ first) has no `.openapi` of its own. `annotate`
 * calls the prototype method on it directly; its result is a fresh copy that has the method.
 */
extendZodWithOpenApi(z);

const openapiMethod = (z.ZodType.prototype as unknown as { openapi: (...args: unknown[]) => unknown }).openapi;

/** `schema.openapi(metadata)`, whenever the schema was built. */
export function annotate<T extends z.ZodType>(schema: T, metadata: Record<string, unknown> = {}): T {
  return openapiMethod.call(schema, metadata) as T;
}

/** `registry.register(name, schema)` for any wire schema: a named component of the document. */
export function registerSchema<T extends z.ZodType>(registry: OpenAPIRegistry, name: string, schema: T): T {
  return registry.register(name, annotate(schema));
}
