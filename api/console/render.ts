import type { Response } from 'express';
import type { JSX } from 'hono/jsx/jsx-runtime';

/**
 * Writes a page rendered with hono/jsx (server-side JSX: every `{value}` is HTML-escaped unless
 * wrapped in hono's `raw()`, which the console never uses for data). The page is a string; no
 * client-side framework, no build step.
 */
export async function render(res: Response, page: JSX.Element, status = 200): Promise<void> {
  // A JSX node's toString() is the HTML, or a promise of it when a component is async.
  const html = await Promise.resolve((await page).toString());
  res.status(status).type('html').send(`<!doctype html>${html}`);
}
