import type { OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';

/*
 * The built document as its readers see it. Its own file because both sides need it: the endpoint
 * definitions (ApiRuntime carries it) and the builder (document.ts, which reads the definitions).
 */

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

export interface OpenApi {
  document: OpenApiDocument;
  /** Every path of the document (`/api/v1/bookings`, `/livez`, ...): the closed set of route labels. */
  paths: ReadonlySet<string>;
  /** The zod schema the document declares for an answer, to check real answers against. */
  responseSchema(method: string, path: string, status: number): z.ZodType | undefined;
  /** The zod schema of an operation's JSON body. */
  bodySchema(method: string, path: string): z.ZodType | undefined;
}
