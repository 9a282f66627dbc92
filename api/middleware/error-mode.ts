import type { Response } from 'express';
import type { ErrorMode } from '../../shared/domain/auth/index.js';

/*
 * The status line of an error answer (docs/api.md "Error answers per app"): the app's error mode
 * once the token named one (`igms`: HTTP 200 with the same body and headers; `http`: the status of
 * the code table), else ERROR_HTTP_STATUS, as before any app is known (no or an unknown token).
 */

/** Noted by authentication as soon as the token's app is known, even when the app is then refused. */
export function noteErrorMode(res: Response, mode: ErrorMode | null | undefined): void {
  if (mode !== null && mode !== undefined) res.locals.errorMode = mode;
}

export function errorStatus(res: Response, status: number, always200ByDefault: boolean): number {
  const mode = res.locals.errorMode as ErrorMode | undefined;
  const always200 = mode === undefined ? always200ByDefault : mode === 'igms';
  return always200 ? 200 : status;
}
