import type { Response } from 'express';
import type { JSX } from 'hono/jsx/jsx-runtime';

/*
 * Live parts of a page (static/console.js): an element with data-live="<url>" is refreshed from that
 * url every data-live-ms milliseconds while the tab is visible; the url answers the element's new
 * inner HTML, rendered by the same JSX (so escaped the same way), and `X-Live-Done: 1` once nothing
 * on it can change any more (polling stops). Each refresh is one read: no more than one query per
 * open page per interval.
 */

/** How often the Requests page and a thread with unsent messages refresh. */
export const LIVE_MS = 2000;

/** Answers an HTML fragment (no doctype); `done` tells the page to stop polling. */
export async function renderFragment(res: Response, node: JSX.Element, done = false): Promise<void> {
  const html = await Promise.resolve((await node).toString());
  if (done) res.setHeader('X-Live-Done', '1');
  res.status(200).type('html').send(html);
}
