/*
 * The one rule for a callback URL an operator or an app gives us (webhooks, channel connectors):
 * absolute http(s), and no credentials in it (issue 39 L4: set-webhook took `https://user:pw@...`
 * while the CLI refused it). A URL's userinfo would be stored in plain text, shown back by
 * get-webhook and the console, and sent as Basic authorization by some clients: a receiver wanting
 * a shared secret checks the delivery's signature instead. The SSRF guard (webhook.target.ts) is
 * the other half, judged at set time and at every connect.
 */

import { withTimeout } from '../../infra/timeout.js';
import { RefusedTargetError, resolveAllowed } from '../../platform/outbound-http/index.js';

export const CALLBACK_URL_PROBLEMS = {
  notAbsolute: 'must be an absolute http or https URL',
  notHttp: 'must be an absolute http or https URL',
  credentials: 'must not carry credentials (user:password@): the signature authenticates deliveries',
} as const;
export type CallbackUrlProblem = keyof typeof CALLBACK_URL_PROBLEMS;

/** Why `text` cannot be a callback URL, or undefined when it can. */
export function callbackUrlProblem(text: string): CallbackUrlProblem | undefined {
  if (!URL.canParse(text)) return 'notAbsolute';
  const url = new URL(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'notHttp';
  if (url.username !== '' || url.password !== '') return 'credentials';
  return undefined;
}

/** How long the set-time lookup of a callback host may take: one that does not answer does not resolve. */
export const RESOLVE_TIMEOUT_MS = 5000;

/**
 * The SSRF guard at set time (the delivery's own lookup checks again at every connect): why the
 * URL's host is refused (it is, or resolves to, a loopback, private or link-local address, or does
 * not resolve), or undefined when it may be set. The message names the host, never an address
 * (issue 39 L3); `onRefused` gets the address for the server's log.
 */
export async function callbackTargetProblem(url: string, allowPrivateTargets: boolean, onRefused?: (host: string, address: string | undefined) => void): Promise<string | undefined> {
  if (allowPrivateTargets) return undefined;
  const host = new URL(url).hostname;
  try {
    await withTimeout(resolveAllowed(host), RESOLVE_TIMEOUT_MS, 'the lookup');
    return undefined;
  } catch (err) {
    if (err instanceof RefusedTargetError) onRefused?.(host, err.address);
    return (err as Error).message.startsWith('target ') ? (err as Error).message : `target ${host} does not resolve`;
  }
}
