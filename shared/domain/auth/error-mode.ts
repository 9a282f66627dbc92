/*
 * Error answers per app (docs/api.md "Error answers per app"): `http` answers an error with the
 * status of the code table, `igms` with HTTP 200 and the same body, as iGMS does. Set on an OAuth
 * client (its developer) or on an app (the operator); an app's own mode wins over its client's. An
 * app with neither, and an answer given before any app is known, follow ERROR_HTTP_STATUS.
 */
export const errorModes = ['http', 'igms'] as const;
export type ErrorMode = (typeof errorModes)[number];

export function isErrorMode(s: unknown): s is ErrorMode {
  return typeof s === 'string' && (errorModes as readonly string[]).includes(s);
}
